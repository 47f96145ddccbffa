package io.github.lockjaw.checks.readmostly;

import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Value;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Who changes each field, over the whole analysed program: the methods that assign it, and those
 * that change the collection or map it holds ({@code names.add(x)}, {@code pools.remove(name)}: a
 * call through the field that is neither a read nor a copy call of {@code read-mostly.txt}).
 * Computed once per program.
 */
final class FieldWriters {
  private static final Map<Program, FieldWriters> BUILT =
      Collections.synchronizedMap(new WeakHashMap<>());

  /**
   * One change of a field.
   *
   * @param writer the method that makes it
   * @param op the assignment, or the call that changes the field's contents
   */
  record Write(MethodFacts writer, Op op) {
    boolean isAssignment() {
      return op.kind() == Op.Kind.PUT_FIELD;
    }
  }

  private final Map<FieldRef, List<Write>> writes = new LinkedHashMap<>();

  private FieldWriters(Program program) {
    Map<FieldRef, FieldRef> declaring = new HashMap<>();
    for (ClassFacts c : program.classes()) {
      for (MethodFacts method : c.methods()) {
        for (Op op : method.ops()) {
          FieldRef field = changed(program, op);
          if (field != null) {
            FieldRef declared =
                declaring.computeIfAbsent(field, f -> ReadOnlyCode.declaring(program, f));
            writes.computeIfAbsent(declared, k -> new ArrayList<>()).add(new Write(method, op));
          }
        }
      }
    }
  }

  static FieldWriters of(Program program) {
    synchronized (BUILT) {
      return BUILT.computeIfAbsent(program, FieldWriters::new);
    }
  }

  /** The changes of a field (named by its declaring class), in program order. */
  List<Write> of(FieldRef field) {
    return writes.getOrDefault(field, List.of());
  }

  /** The field an operation assigns, or whose collection or map it changes; null otherwise. */
  private static FieldRef changed(Program program, Op op) {
    if (op.kind() == Op.Kind.PUT_FIELD) {
      return op.field();
    }
    if (!op.isCall()
        || op.kind() == Op.Kind.NEW
        || !(op.receiver() instanceof Value.FieldValue field)) {
      return null;
    }
    String type = field.field().type();
    if (program.matchType(ReadMostlyKnowledge.CONTAINER_TYPES, type).isEmpty()
        && program.matchType(ReadMostlyKnowledge.CONTAINER_TYPES, op.method().owner()).isEmpty()) {
      return null; // a call on another kind of object changes that object, not the field
    }
    if (program.match(ReadMostlyKnowledge.READ_CALLS, op.method()).isPresent()
        || program.match(ReadMostlyKnowledge.COPY_CALLS, op.method()).isPresent()) {
      return null;
    }
    return field.field();
  }
}
