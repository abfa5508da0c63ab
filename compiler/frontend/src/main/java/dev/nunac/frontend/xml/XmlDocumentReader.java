package dev.nunac.frontend.xml;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.diag.Text;
import dev.nunac.ir.Limits;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Streams a document's elements to a handler, one start and end tag at a time, so memory grows
 * with the plan and not with the text. Refuses what an MSCCL-IR file never needs and an attacker
 * would use: DTDs, entity references, and unbounded element counts, attribute counts or nesting.
 */
final class XmlDocumentReader {
    interface Handler {
        void start(XmlElement e, int depth);

        void end(String name, int depth);
    }

    private XmlDocumentReader() {}

    static void read(String file, InputStream in, Limits limits, Handler h) {
        XMLStreamReader r = SafeXml.open(file, in);
        long elements = 0;
        int depth = 0;
        try {
            // The position after the previous event is where the next tag's '<' is (or the
            // whitespace before it): more useful in messages than the end of the tag.
            Location before = r.getLocation();
            SourcePos whitespaceEnd = null;
            while (r.hasNext()) {
                int ev = r.next();
                SourcePos pos = before == null ? whitespaceEnd : pos(file, before);
                switch (ev) {
                    case XMLStreamConstants.START_ELEMENT -> {
                        if (++elements > limits.maxElements()) {
                            throw input(pos, "more than " + limits.maxElements()
                                    + " elements (raise the limit with --limit elements=N)");
                        }
                        if (++depth > limits.maxNesting()) {
                            throw input(pos, "elements nested deeper than " + limits.maxNesting()
                                    + " levels (raise the limit with --limit nesting=N)");
                        }
                        int n = r.getAttributeCount();
                        if (n > limits.maxAttributes()) {
                            throw input(pos, "element <" + r.getLocalName() + "> has " + n + " attributes; the limit is "
                                    + limits.maxAttributes() + " (raise it with --limit attributes=N)");
                        }
                        Map<String, String> attrs = new LinkedHashMap<>();
                        for (int i = 0; i < n; i++) attrs.put(r.getAttributeLocalName(i), r.getAttributeValue(i));
                        h.start(new XmlElement(r.getLocalName(), attrs, pos), depth);
                    }
                    case XMLStreamConstants.END_ELEMENT -> h.end(r.getLocalName(), depth--);
                    case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                        SourcePos end = textPos(file, before == null ? whitespaceEnd : pos(file, before), r);
                        if (!r.isWhiteSpace()) {
                            throw new CompileException(ErrorKind.PLAN, end, "unexpected text '" + Text.shown(r.getText().strip()) + "'");
                        }
                        // The reader's own location here is past the '<' it looked ahead at.
                        before = null;
                        whitespaceEnd = end;
                        continue;
                    }
                    case XMLStreamConstants.DTD -> throw input(pos,
                            "DOCTYPE declarations are not allowed (an MSCCL-IR file needs no DTD or entities)");
                    case XMLStreamConstants.ENTITY_REFERENCE -> throw input(pos,
                            "entity reference '&" + r.getLocalName() + ";' is not allowed");
                    default -> { }
                }
                before = r.getLocation();
            }
        } catch (XMLStreamException e) {
            throw SafeXml.notWellFormed(file, e);
        } finally {
            try {
                r.close();
            } catch (XMLStreamException ignored) {
                // nothing was acquired that closing could release
            }
        }
    }

    private static SourcePos textPos(String file, SourcePos before, XMLStreamReader r) {
        // Skip the leading whitespace of a text node so the column points at the text itself
        // (or, for whitespace only, at what follows it).
        String t = r.getText();
        int line = before.line(), col = before.col();
        for (int i = 0; i < t.length() && Character.isWhitespace(t.charAt(i)); i++) {
            if (t.charAt(i) == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        return new SourcePos(file, Math.max(1, line), Math.max(1, col));
    }

    private static SourcePos pos(String file, Location l) {
        if (l == null || l.getLineNumber() < 1) return SourcePos.of(file);
        return new SourcePos(file, l.getLineNumber(), Math.max(1, l.getColumnNumber()));
    }

    private static CompileException input(SourcePos pos, String message) {
        return new CompileException(ErrorKind.INPUT, pos, message);
    }
}
