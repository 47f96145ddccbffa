package io.github.lockjaw.engine.finding;

/** A check as reporters describe it: its name, one-line summary, docs page and default severity. */
public record Rule(String id, String summary, String helpUri, Severity defaultSeverity) {}
