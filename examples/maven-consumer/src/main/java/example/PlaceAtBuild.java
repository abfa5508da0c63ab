package example;

import dev.nunac.Nunac;
import dev.nunac.diag.CompileException;
import dev.nunac.diag.Diagnostic;
import dev.nunac.driver.CompileResult;
import dev.nunac.emit.EmitSettings;
import dev.nunac.emit.PlacementHeader;
import dev.nunac.emit.PlacementJson;
import dev.nunac.emit.Report;
import dev.nunac.passes.place.PlacementOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Places a plan on a topology with nunac's Java API and writes placement.h (symbols prefixed
 * {@code app_}) and placement.json into a folder, printing the headline nunac prints.
 *
 * <pre>java -cp "target/place-at-build.jar:target/lib/*" example.PlaceAtBuild PLAN TOPOLOGY OUT_DIR</pre>
 */
public final class PlaceAtBuild {
    private PlaceAtBuild() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("usage: PlaceAtBuild PLAN TOPOLOGY OUT_DIR");
            System.exit(2);
        }
        CompileResult r;
        try {
            r = Nunac.compile(Path.of(args[0]), Map.of("ranks", "4"), args[1],
                    PlacementOptions.auto(PlacementOptions.NAR_AUTO, 1 << 20));
        } catch (CompileException e) {
            for (Diagnostic d : e.diagnostics()) System.err.println(d.format());
            // the exit codes nunac's command line gives (docs/errors.md); the kinds carry none
            System.exit(switch (e.kind()) {
                case PLAN -> 1;
                case USAGE -> 2;
                case INPUT -> 3;
            });
            return;
        }
        Path out = Files.createDirectories(Path.of(args[2]));
        Files.writeString(out.resolve("placement.h"), PlacementHeader.emit(r, new EmitSettings("app")));
        Files.writeString(out.resolve("placement.json"), PlacementJson.emit(r));
        System.out.println(Report.headline(r));
    }
}
