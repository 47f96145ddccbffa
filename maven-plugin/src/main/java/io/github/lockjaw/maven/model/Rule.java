package io.github.lockjaw.maven.model;

/** A check as reporters describe it: its name, one-line summary, docs page and default severity. */
public record Rule(String id, String summary, String helpUri, Severity defaultSeverity) {}
