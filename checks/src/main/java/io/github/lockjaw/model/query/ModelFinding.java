package io.github.lockjaw.model.query;

import io.github.lockjaw.model.Effects;
import io.github.lockjaw.model.MethodFacts;
import java.util.List;

/**
 * What a query found, for both engines: the method, the region or operation the finding is about
 * (the source engine reports at its tree, the bytecode engine at its line), the message, and the
 * evidence: how requests reach the code and what the code under the lock does.
 *
 * @param check the check's name
 * @param method the method holding the flagged code
 * @param region the flagged monitor region's id, or -1
 * @param op the flagged operation's index, or -1 (then the region, or else the method, is flagged)
 * @param line the line to report at
 * @param message what is wrong and what to do
 * @param requestPath how requests reach the method, entry point first; empty when not relevant
 * @param effect the effect the finding is about (its chain of calls), or {@code null}
 * @param detail query-specific facts a source fix needs, or {@code null}
 */
public record ModelFinding(
    String check,
    MethodFacts method,
    int region,
    int op,
    int line,
    String message,
    List<String> requestPath,
    Effects.Effect effect,
    Object detail) {}
