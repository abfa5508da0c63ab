package dev.nunac.fuzz;

/** A valid (or deliberately broken) input that the campaign mutates; {@code ext} picks the front end. */
record Seed(String name, byte[] bytes, String ext) {}
