package dev.nunac.emit;

import dev.nunac.driver.CompileResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The files `nunac PLAN --topo T` can write (`--emit`), each a pure function of the
 * compilation. Default ones are written without --emit.
 */
public enum Output {
    JSON("json", "placement.json", true, (r, s) -> PlacementJson.emit(r, s.compact())),
    HEADER("header", "placement.h", true, (r, s) -> s.compact() ? PlacementHeader.emitCompact(r, s) : PlacementHeader.emit(r, s)),
    REPORT("report", "report.txt", true, Report::emit),
    SVG("svg", "floorplan.svg", false, (r, s) -> Floorplan.render(r, s.floorplanRank())),
    /** The plan as MSCCL-IR XML; plans with one-sided steps have none (an error). */
    MSCCL_XML("msccl-xml", "plan.xml", false, r -> MscclXmlExporter.export(r.plan())),
    /**
     * The plan as MSCCL-IR XML with threadblock ids in launch order, so that stock RCCL realises
     * the XCD placement (see {@link PlacedXml}).
     */
    PLACED_XML("placed-xml", "placed.xml", false, PlacedXml::emit),
    /** An MSCCL++ execution plan with threadblocks in launch order (see {@link PlacedMscclppJson}). */
    PLACED_JSON("placed-json", "placed.json", false, PlacedMscclppJson::emit),
    /** The launch table the runtime shim executes. */
    LAUNCH("launch", "launch.txt", false, LaunchTable::emit);

    public final String id;
    public final String file;
    public final boolean byDefault;
    private final BiFunction<CompileResult, EmitSettings, String> render;

    Output(String id, String file, boolean byDefault, Function<CompileResult, String> render) {
        this(id, file, byDefault, (r, s) -> render.apply(r));
    }

    Output(String id, String file, boolean byDefault, BiFunction<CompileResult, EmitSettings, String> render) {
        this.id = id;
        this.file = file;
        this.byDefault = byDefault;
        this.render = render;
    }

    public String render(CompileResult r) {
        return render(r, EmitSettings.DEFAULT);
    }

    public String render(CompileResult r, EmitSettings settings) {
        return render.apply(r, settings);
    }

    /**
     * Whether {@link #write} streams the output as it is made rather than rendering it whole:
     * the outputs whose size grows with the plan's threadblocks and pages.
     */
    public boolean streams() {
        return this == JSON || this == HEADER;
    }

    /** The text {@link #render} gives, written to {@code out}. */
    public void write(CompileResult r, EmitSettings settings, TextOut out) {
        write(r, settings, null, out);
    }

    /** The same; the header uses {@code fp}, the fingerprints of {@code r}'s plan and topology, when not null. */
    public void write(CompileResult r, EmitSettings settings, PlacementHeader.Fingerprints fp, TextOut out) {
        switch (this) {
            case JSON -> PlacementJson.write(r, settings.compact(), out);
            case HEADER -> {
                PlacementHeader.Fingerprints f = fp != null ? fp : PlacementHeader.Fingerprints.of(r);
                if (settings.compact()) PlacementHeader.writeCompact(r, settings, f, out);
                else PlacementHeader.write(r, settings, f, out);
            }
            default -> out.append(render(r, settings));
        }
    }

    public static Optional<Output> parse(String s) {
        for (Output o : values()) if (o.id.equals(s.trim().toLowerCase(Locale.ROOT))) return Optional.of(o);
        return Optional.empty();
    }

    public static List<String> ids(boolean defaultsOnly) {
        List<String> out = new ArrayList<>();
        for (Output o : values()) if (!defaultsOnly || o.byDefault) out.add(o.id);
        return out;
    }
}
