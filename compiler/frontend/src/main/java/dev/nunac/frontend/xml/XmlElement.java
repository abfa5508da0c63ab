package dev.nunac.frontend.xml;

import dev.nunac.diag.SourcePos;
import java.util.Map;

/** A start tag: its name, attributes in document order, and where its '&lt;' is. */
record XmlElement(String name, Map<String, String> attributes, SourcePos pos) {}
