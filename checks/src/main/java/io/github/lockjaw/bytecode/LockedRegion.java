package io.github.lockjaw.bytecode;

import edu.umd.cs.findbugs.OpcodeStack;
import edu.umd.cs.findbugs.ba.XField;
import io.github.lockjaw.knowledge.JavaNames;
import java.util.List;
import org.apache.bcel.classfile.Code;
import org.apache.bcel.classfile.Method;

/**
 * Code of one method that holds a monitor, as the lock-region detector ({@link LockRegionDetector})
 * records it while it visits a class: the whole body of a synchronized method ({@code whole},
 * {@code pc} -1), or the instructions a {@code monitorenter} at {@code pc} covers.
 */
record LockedRegion(
    Method method, LockedRegion.Monitor monitor, List<int[]> ranges, int pc, boolean whole) {

  /**
   * A monitor several members can share: the instance's, a class's, or a lock held in a field
   * ({@code fieldSignature} and {@code staticField} describe that field).
   */
  record Monitor(String key, String description, String fieldSignature, boolean staticField) {

    /** The monitor a synchronized method of class {@code className} (internal name) holds. */
    static Monitor ofSynchronizedMethod(Method method, String className) {
      String simple = JavaNames.simpleName(className);
      return method.isStatic()
          ? new Monitor("class:" + className, "the class monitor of " + simple, null, false)
          : new Monitor("this", "the monitor of the " + simple + " instance", null, false);
    }

    /**
     * The monitor a {@code monitorenter} takes on {@code lock} in {@code method}, or null when it
     * is none that other members can share (a local, a parameter, another object's field).
     */
    static Monitor atMonitorEnter(OpcodeStack.Item lock, Method method, String className) {
      XField field = lock.getXField();
      if (lock.getRegisterNumber() == 0 && !method.isStatic()) {
        return new Monitor(
            "this",
            "the monitor of the " + JavaNames.simpleName(className) + " instance",
            null,
            false);
      } else if (field != null && (field.isStatic() || lock.getFieldLoadedFromRegister() == 0)) {
        return new Monitor(
            "field:" + field.getClassName() + "." + field.getName(),
            "the lock in field '" + field.getName() + "'",
            field.getSignature(),
            field.isStatic());
      } else if ("Ljava/lang/Class;".equals(lock.getSignature())
          && lock.getConstant() instanceof String type) {
        String internal = type.replace('.', '/');
        return new Monitor(
            "class:" + internal,
            "the class monitor of " + JavaNames.simpleName(internal),
            null,
            false);
      }
      return null;
    }
  }

  /** The whole body of a synchronized method. */
  static LockedRegion ofSynchronizedMethod(Method method, Code code, String className) {
    return new LockedRegion(
        method,
        Monitor.ofSynchronizedMethod(method, className),
        List.of(new int[] {0, code.getCode().length}),
        -1,
        true);
  }

  /** The instructions a {@code monitorenter} at {@code pc} covers, holding {@code monitor}. */
  static LockedRegion atMonitorEnter(Method method, Monitor monitor, Code code, int pc) {
    return new LockedRegion(method, monitor, LockjawDetector.monitorRegion(code, pc), pc, false);
  }
}
