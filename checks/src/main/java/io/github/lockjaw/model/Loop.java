package io.github.lockjaw.model;

/**
 * A loop of a method: {@code for}, {@code while}, {@code do}, an enhanced {@code for}.
 *
 * @param id the loop's index in {@link MethodFacts#loops()}
 * @param parent the id of the loop it is nested in, or -1
 * @param line the line of the loop's head
 */
public record Loop(int id, int parent, int line) {}
