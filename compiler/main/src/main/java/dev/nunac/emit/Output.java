package dev.nunac.emit;

import dev.nunac.driver.CompileResult;
import dev.nunac.passes.place.PlacementStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The files `nunac PLAN --topo T` can write (`--emit`), each a pure function of the
 * compilation and the UA baseline's statistics. Default ones are written without --emit.
 */
public enum Output {
    JSON("json", "placement.json", true, true, PlacementJson::emit),
    HEADER("header", "placement.h", true, false, (r, ua) -> PlacementHeader.emit(r)),
    REPORT("report", "report.txt", true, true, Report::emit),
    SVG("svg", "floorplan.svg", false, false, (r, ua) -> Floorplan.render(r)),
    /** The plan as MSCCL-IR XML; plans with one-sided steps have none (an error). */
    MSCCL_XML("msccl-xml", "plan.xml", false, false, (r, ua) -> MscclXmlExporter.export(r.plan())),
    /** The launch table the runtime shim executes. */
    LAUNCH("launch", "launch.txt", false, false, (r, ua) -> LaunchTable.emit(r));

    public final String id;
    public final String file;
    public final boolean byDefault;
    /** Whether the file compares against the UA baseline (which costs a second placement). */
    public final boolean needsBaseline;
    private final BiFunction<CompileResult, PlacementStats, String> render;

    Output(String id, String file, boolean byDefault, boolean needsBaseline,
           BiFunction<CompileResult, PlacementStats, String> render) {
        this.id = id;
        this.file = file;
        this.byDefault = byDefault;
        this.needsBaseline = needsBaseline;
        this.render = render;
    }

    /** @param uaBaseline the UA placement's statistics; may be null for outputs that do not need it */
    public String render(CompileResult r, PlacementStats uaBaseline) {
        if (needsBaseline && uaBaseline == null) throw new IllegalArgumentException(id + " needs the UA baseline");
        return render.apply(r, uaBaseline);
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
