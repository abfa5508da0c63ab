package dev.nunac.frontend.xml;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.diag.Text;
import java.io.InputStream;
import javax.xml.XMLConstants;
import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A StAX reader that cannot be made to fetch or expand anything: no DTD processing, no external
 * entities, no external DTD or schema access. DTD and entity-reference events that still reach
 * the caller are refused there ({@link XmlDocumentReader}).
 */
final class SafeXml {
    private SafeXml() {}

    static XMLStreamReader open(String file, InputStream in) {
        XMLInputFactory f = XMLInputFactory.newFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
        f.setProperty(XMLInputFactory.IS_COALESCING, false);
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        trySet(f, XMLConstants.ACCESS_EXTERNAL_DTD, "");
        trySet(f, XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        // The JDK's own cap on attributes (10,000) would answer first, in its words: nunac counts them
        // itself against --limit attributes, and the input-size limit bounds the document.
        trySet(f, "jdk.xml.elementAttributeLimit", "0");
        f.setXMLResolver((publicId, systemId, base, ns) -> {
            throw new XMLStreamException("external entities are not allowed");
        });
        try {
            return f.createXMLStreamReader(in);
        } catch (XMLStreamException e) {
            throw notWellFormed(file, e);
        }
    }

    private static void trySet(XMLInputFactory f, String name, Object value) {
        try {
            f.setProperty(name, value);
        } catch (IllegalArgumentException ignored) {
            // Another StAX implementation without the JAXP property: DTDs are off regardless.
        }
    }

    /** An INPUT error at the parser's position, with the parser's message minus its own prefix. */
    static CompileException notWellFormed(String file, XMLStreamException e) {
        Location l = e.getLocation();
        SourcePos pos = l == null || l.getLineNumber() < 1 ? SourcePos.of(file)
                : new SourcePos(file, l.getLineNumber(), Math.max(1, l.getColumnNumber()));
        String m = e.getMessage() == null ? "malformed XML" : e.getMessage();
        int i = m.indexOf("Message: ");
        if (i >= 0) m = m.substring(i + "Message: ".length());
        return new CompileException(ErrorKind.INPUT, pos, "not well-formed XML: " + Text.parserMessage(m.strip()));
    }
}
