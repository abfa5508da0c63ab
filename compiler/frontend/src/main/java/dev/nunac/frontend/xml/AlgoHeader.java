package dev.nunac.frontend.xml;

import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.SourcePos;
import dev.nunac.diag.Text;
import dev.nunac.ir.Collective;
import dev.nunac.ir.Protocol;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The {@code <algo>} element of either dialect: the older msccl-tools output without
 * {@code outofplace/minBytes/maxBytes}, and the newer executors' form with them. Everything but
 * the values the IR models directly is kept as a plan attribute, including extras such as
 * {@code maxcount}, {@code nthreadblocks} and {@code redop}.
 */
record AlgoHeader(String name, Protocol protocol, Collective collective, int ngpus, int nchunksperloop,
                  int nchannels, boolean inplace, int chunkFactor, Map<String, String> attributes, SourcePos pos) {
    /** Attributes the IR holds in its own fields. */
    private static final Set<String> MODELLED = Set.of("name", "proto", "ngpus", "coll", "inplace");

    /** Null when the header is unusable; every problem goes to {@code d}. */
    static AlgoHeader read(XmlElement e, Diagnostics d) {
        Attrs a = new Attrs(e, d);
        int before = d.errorCount();
        String name = a.string("name");
        String proto = a.string("proto");
        Protocol protocol = proto == null ? null : Protocol.parse(proto).orElse(null);
        if (proto != null && protocol == null) {
            d.error(e.pos(), "unknown protocol '" + Text.shown(proto) + "' in <algo> (expected Simple, LL or LL128)");
        }
        int nchannels = a.integer("nchannels", 1);
        int nchunks = a.integer("nchunksperloop", 1);
        int ngpus = a.integer("ngpus", 1);
        String coll = a.string("coll");
        Collective collective = coll == null ? null : Collective.parse(coll).orElse(Collective.CUSTOM);
        boolean inplace = a.flag("inplace");
        if (a.has("outofplace")) a.flag("outofplace");
        a.optionalLong("minBytes");
        a.optionalLong("maxBytes");
        if (a.has("nthreads")) a.integer("nthreads", 1);
        // Names and kept attributes reach messages, reports and headers: no line breaks or NULs in them.
        Text.checkPrintable(name, "the plan name (attribute 'name' of <algo>)", e.pos(), d);
        for (Map.Entry<String, String> x : e.attributes().entrySet()) {
            if (!x.getKey().equals("name")) Text.checkPrintable(x.getValue(), "attribute '" + x.getKey() + "' of <algo>", e.pos(), d);
        }
        if (d.errorCount() > before) return null;
        int mult = switch (collective) {
            case ALLGATHER, ALLTOALL, REDUCESCATTER -> ngpus;
            default -> 1;
        };
        if (nchunks % mult != 0) {
            d.error(e.pos(), "nchunksperloop " + nchunks + " of a " + collective.id() + " must be a multiple of ngpus ("
                    + ngpus + ")");
            return null;
        }
        Map<String, String> attrs = new TreeMap<>();
        for (Map.Entry<String, String> x : e.attributes().entrySet()) {
            if (!MODELLED.contains(x.getKey())) attrs.put(x.getKey(), x.getValue().strip());
        }
        // A collective the IR does not know (alltoallv, gather, ...) keeps its spelling for export.
        if (collective == Collective.CUSTOM && !coll.equals("custom")) attrs.put("coll", coll);
        return new AlgoHeader(name, protocol, collective, ngpus, nchunks, nchannels, inplace, nchunks / mult, attrs, e.pos());
    }
}
