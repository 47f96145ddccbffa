package io.github.lockjaw.bytecode;

import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.bcel.classfile.CodeException;
import org.apache.bcel.classfile.Method;

/**
 * Bytecode side of SharedMonitorDao's rule on a lazy pool creation (the source side is {@code
 * io.github.lockjaw.checks.dao.LockedLazyCreation}): a creation that holds a shared monitor for its
 * whole body and that a method handing out connections ({@code connection-acquisition} in {@code
 * jdbc.txt}) calls on every call, as commons-dbcp 1.x's {@code getConnection()} calls the {@code
 * synchronized createDataSource()}. "On every call" means: the call is reached with no forward
 * branch or switch that can jump over it, no return before it, and outside exception handlers.
 */
final class LazyCreationOnRequestPath {
  private static final KnowledgeIndex ACQUISITION =
      KnowledgeIndex.of(Kind.Jdbc.CONNECTION_ACQUISITION);

  /**
   * One method of the class as the rule sees it.
   *
   * @param method the method
   * @param creationCalls the pcs of its calls to the creation on {@code this}
   * @param branches {pc, target} of its branches; a switch has target {@link Integer#MAX_VALUE}
   * @param returns the pcs of its return instructions
   */
  record Caller(
      Method method, List<Integer> creationCalls, List<int[]> branches, List<Integer> returns) {}

  private LazyCreationOnRequestPath() {}

  /**
   * The connection-acquisition methods among {@code callers} that call the creation on every call,
   * as {@code getConnection()}; {@code implementsType} tells whether the class is a subtype of a
   * type (internal name).
   */
  static List<String> requestCallers(List<Caller> callers, Predicate<String> implementsType) {
    List<String> names = new ArrayList<>();
    for (Caller caller : callers) {
      Method method = caller.method();
      if (method.isStatic()
          || method.getCode() == null
          || !isAcquisition(method.getName(), implementsType)) {
        continue;
      }
      for (int pc : caller.creationCalls()) {
        if (runsOnEveryCall(caller, pc) && !names.contains(method.getName() + "()")) {
          names.add(method.getName() + "()");
        }
      }
    }
    return names;
  }

  private static boolean isAcquisition(String name, Predicate<String> implementsType) {
    for (KnowledgeIndex.MethodEntry entry : ACQUISITION.candidates(name)) {
      if (implementsType.test(entry.internalOwner())) {
        return true;
      }
    }
    return false;
  }

  private static boolean runsOnEveryCall(Caller caller, int pc) {
    for (int[] branch : caller.branches()) {
      if (branch[0] < pc && branch[1] > pc) {
        return false; // a branch before the call can jump over it
      }
    }
    for (int at : caller.returns()) {
      if (at < pc) {
        return false; // an earlier return: the call is on one path only
      }
    }
    CodeException[] handlers = caller.method().getCode().getExceptionTable();
    for (CodeException handler : handlers == null ? new CodeException[0] : handlers) {
      if (handler.getHandlerPC() <= pc) {
        return false; // possibly inside a catch or finally handler
      }
    }
    return true;
  }
}
