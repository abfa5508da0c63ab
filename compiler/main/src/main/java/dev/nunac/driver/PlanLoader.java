package dev.nunac.driver;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.frontend.SourceText;
import dev.nunac.frontend.dsl.DslFrontEnd;
import dev.nunac.ir.IrVerifier;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a plan file of any supported format into the IR: the edge between the file system and
 * the front ends. The format follows the extension: .msccl (DSL), .xml (MSCCL-IR), .json
 * (MSCCL++ execution plan).
 */
public final class PlanLoader {
    private PlanLoader() {}

    public static Plan load(Path path, Map<String, String> defines, Limits limits) {
        String name = path.toString();
        String ext = extension(name);
        if (!ext.equals("msccl")) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(name),
                    "unsupported plan format '." + ext + "' (expected .msccl)");
        }
        SourceText src = new SourceText(name, readText(path, limits));
        Plan plan = DslFrontEnd.parse(src, defines, limits);
        var d = IrVerifier.verify(plan);
        d.throwIfErrors(ErrorKind.PLAN);
        return plan;
    }

    static String extension(String name) {
        int slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
        int dot = name.lastIndexOf('.');
        return dot > slash ? name.substring(dot + 1).toLowerCase(Locale.ROOT) : "";
    }

    /** Reads a whole file as strict UTF-8 within the input-size limit; errors are INPUT errors. */
    public static String readText(Path path, Limits limits) {
        return decode(path, readBytes(path, limits));
    }

    public static byte[] readBytes(Path path, Limits limits) {
        String name = path.toString();
        try {
            if (Files.isDirectory(path)) throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "is a directory, not a file");
            long size = Files.size(path);
            if (size > limits.maxInputBytes()) {
                throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "file is " + size + " bytes; the limit is "
                        + limits.maxInputBytes() + " (raise it with --limit input-bytes=N)");
            }
            return Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "no such file");
        } catch (AccessDeniedException e) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "permission denied");
        } catch (IOException e) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "cannot read: " + e.getMessage());
        }
    }

    static String decode(Path path, byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(path.toString()), "not valid UTF-8 text");
        }
    }
}
