package dev.nunac.frontend;

/** An input file's text and the name diagnostics use for it (as the user spelled the path). */
public record SourceText(String name, String text) {}
