package io.github.lockjaw.common;

/**
 * The monitor that guards a region of code, as both engines tell it apart: the source checks
 * ({@code GuardingMonitor}) from {@code synchronized} blocks and methods, the bytecode detectors
 * from {@code monitorenter} and {@code ACC_SYNCHRONIZED}.
 */
public enum MonitorKind {
  /**
   * {@code synchronized (Foo.class)}, {@code synchronized (clazz)}, {@code static synchronized}.
   */
  CLASS,
  /** {@code synchronized (this)}, {@code synchronized (lock)}, a {@code synchronized} method. */
  OBJECT,
  /** Code that holds no monitor of its own. */
  NONE
}
