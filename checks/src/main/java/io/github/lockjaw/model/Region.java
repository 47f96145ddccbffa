package io.github.lockjaw.model;

/**
 * A stretch of a method that holds a monitor: the whole body of a {@code synchronized} method, or a
 * {@code synchronized} block.
 *
 * @param id the region's index in {@link MethodFacts#regions()}
 * @param monitor the locked object: {@link Value.This} or {@link Value.ClassLiteral} of the owner
 *     for a synchronized method; for a block, the value of its expression
 * @param monitorType the static type of the locked object (binary name), or empty when unknown
 * @param wholeMethod whether it is a synchronized method's body
 * @param parent the id of the region it is nested in, or -1
 * @param line the line of the {@code synchronized} keyword (for a method, its declaration)
 */
public record Region(
    int id, Value monitor, String monitorType, boolean wholeMethod, int parent, int line) {}
