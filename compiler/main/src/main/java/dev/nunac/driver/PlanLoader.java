package dev.nunac.driver;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.diag.Utf8Check;
import dev.nunac.frontend.SourceText;
import dev.nunac.frontend.dsl.DslFrontEnd;
import dev.nunac.frontend.mscclpp.MscclppJsonImporter;
import dev.nunac.frontend.xml.MscclXmlImporter;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import java.io.IOException;
import java.io.InputStream;
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
        if (Files.isDirectory(path)) throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "is a directory, not a plan file");
        if (!defines.isEmpty() && (ext.equals("xml") || ext.equals("json"))) {
            // Silently ignoring -D would run another plan than the one asked for.
            throw new CompileException(ErrorKind.USAGE, SourcePos.NONE, "-D " + String.join(", -D ", defines.keySet())
                    + ": only .msccl plans have parameters; " + name + " is " + (ext.equals("xml") ? "an MSCCL-IR" : "an MSCCL++")
                    + " plan");
        }
        // Every front end verifies the IR it builds, so nothing is verified twice here.
        return switch (ext) {
            case "msccl" -> DslFrontEnd.parse(new SourceText(name, readText(path, limits)), defines, limits);
            case "xml" -> {
                try (InputStream in = open(path, limits)) {
                    yield MscclXmlImporter.read(name, in, limits);
                } catch (IOException e) {
                    throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "cannot read: " + e.getMessage());
                }
            }
            case "json" -> {
                byte[] bytes = readBytes(path, limits);
                yield MscclppJsonImporter.read(name, bytes, limits);
            }
            default -> throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), ext.isEmpty()
                    ? "the file name has no extension to tell its format (expected .msccl, .xml or .json)"
                    : "unsupported plan format '." + ext + "' (expected .msccl, .xml or .json)");
        };
    }

    /** The extension that decides a plan file's format, in lower case ("" when none). */
    public static String extension(String name) {
        int slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
        int dot = name.lastIndexOf('.');
        return dot > slash ? name.substring(dot + 1).toLowerCase(Locale.ROOT) : "";
    }

    /**
     * Reads a whole file as strict UTF-8 within the input-size limit, without the byte-order mark
     * an editor may have put first; errors are INPUT errors at the bad byte.
     */
    public static String readText(Path path, Limits limits) {
        byte[] bytes = readBytes(path, limits);
        Utf8Check.verify(path.toString(), bytes);
        String text = new String(bytes, StandardCharsets.UTF_8);
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    public static byte[] readBytes(Path path, Limits limits) {
        try (InputStream in = open(path, limits)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(path.toString()), "cannot read: " + e.getMessage());
        }
    }

    /**
     * Opens a file for streaming within the input-size limit. A regular file's size is checked
     * first; the bytes read are counted too, since a device or FIFO (or a link to one) reports
     * no size that bounds what reading it yields. A device or FIFO is read whole first, within
     * the input-seconds limit ({@link dev.nunac.diag.DeadlineRead}).
     */
    public static InputStream open(Path path, Limits limits) {
        String name = path.toString();
        try {
            if (Files.isDirectory(path)) throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "is a directory, not a file");
            long size = Files.size(path);
            if (size > limits.maxInputBytes()) {
                throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "file is " + size + " bytes; the limit is "
                        + limits.maxInputBytes() + " (raise it with --limit input-bytes=N)");
            }
            if (!Files.isRegularFile(path)) {
                // A FIFO or device may never deliver (no writer) or trickle: read it whole, within the time limit.
                byte[] bytes = dev.nunac.diag.DeadlineRead.read(path, limits.maxInputBytes(), limits.maxInputSeconds(),
                        " (raise it with --limit input-seconds=N)");
                return new CountedInput(name, new java.io.ByteArrayInputStream(bytes), limits.maxInputBytes());
            }
            return new CountedInput(name, new java.io.BufferedInputStream(Files.newInputStream(path), 1 << 16), limits.maxInputBytes());
        } catch (NoSuchFileException e) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "no such file");
        } catch (AccessDeniedException e) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "permission denied");
        } catch (IOException e) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "cannot read: " + e.getMessage());
        }
    }

}
