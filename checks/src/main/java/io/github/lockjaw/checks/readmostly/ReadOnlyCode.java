package io.github.lockjaw.checks.readmostly;

import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.FieldFacts;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.Value;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a locked region does, if it only reads, as facts of the model: the field reads (of the
 * region and of the methods it calls, which must only read too: a private lookup helper, an
 * accessor of another class), and what it copies. A region that writes a field, creates anything
 * but an exception or a copy of a collection, holds a lambda or another lock, or calls anything
 * that is neither a known read or copy call ({@code read-mostly.txt}) nor code that only reads, is
 * not read-only.
 */
final class ReadOnlyCode {
  /** How deep the methods a region calls are followed. */
  private static final int MAX_DEPTH = 3;

  /** How many implementations a call may dispatch to and still be followed. */
  private static final int MAX_TARGETS = 4;

  /**
   * A field read: the operation, and the method it is in (the region's, or one it calls).
   *
   * @param field the field, named by the class that declares it
   */
  record Read(FieldRef field, MethodFacts in, Op op) {}

  private final Program program;
  private final List<Read> reads = new ArrayList<>();
  private final Set<String> copies = new LinkedHashSet<>();
  private final Set<MethodRef> visiting = new LinkedHashSet<>();
  private boolean readOnly = true;

  private ReadOnlyCode(Program program) {
    this.program = program;
  }

  boolean readOnly() {
    return readOnly;
  }

  /** The reads of fields that are state (constants left out), in program order. */
  List<Read> reads() {
    return reads;
  }

  /**
   * What the code copies, as people read it: {@code List.toArray()}, {@code new ArrayList(...)}.
   */
  Set<String> copies() {
    return copies;
  }

  /** The region's code and the code it calls. */
  static ReadOnlyCode of(Program program, MethodFacts method, Region region) {
    ReadOnlyCode code = new ReadOnlyCode(program);
    for (Region other : method.regions()) {
      if (other.parent() == region.id()) {
        code.readOnly = false; // another lock inside: more than a read
        return code;
      }
    }
    code.visiting.add(method.ref());
    code.scan(method, method.opsIn(region.id()), 0);
    return code;
  }

  private void scan(MethodFacts method, List<Op> ops, int depth) {
    for (Op op : ops) {
      if (!readOnly) {
        return;
      }
      switch (op.kind()) {
        case PUT_FIELD -> readOnly = false;
        case GET_FIELD -> {
          FieldRef field = declaring(program, op.field());
          if (!isConstant(program, field)) {
            reads.add(new Read(field, method, op));
          }
        }
        case NEW -> creation(op);
        case INVOKE_STATIC, INVOKE_VIRTUAL, INVOKE_SPECIAL -> call(op, depth);
        default -> {
          // returns and throws: reading
        }
      }
    }
  }

  private void creation(Op op) {
    String type = op.method().owner();
    if (program.isSubtype(type, "java.lang.Throwable") || type.equals("java.lang.StringBuilder")) {
      return;
    }
    if (isCopyConstructor(op)) {
      copies.add("new " + simple(type) + "(...)");
      return;
    }
    readOnly = false;
  }

  private boolean isCopyConstructor(Op op) {
    String type = op.method().owner();
    int dot = type.lastIndexOf('.');
    String pkg = dot < 0 ? "" : type.substring(0, dot);
    return ReadMostlyKnowledge.COPY_CONSTRUCTOR_PACKAGES.contains(pkg)
        && !type.endsWith("Exception")
        && op.args().size() == 1
        && op.method().descriptor().startsWith("(L");
  }

  private void call(Op op, int depth) {
    if (op.args().stream().anyMatch(a -> a instanceof Value.Lambda)) {
      readOnly = false;
      return;
    }
    MethodRef call = op.method();
    if (program.matchType(ReadMostlyKnowledge.ACCESS_ORDERED_TYPES, call.owner()).isPresent()) {
      readOnly = false; // an LRU map's get() reorders it
      return;
    }
    if (program.match(ReadMostlyKnowledge.COPY_CALLS, call).isPresent()) {
      copies.add(simple(call.owner()) + "." + call.name() + "()");
      return;
    }
    if (program.match(ReadMostlyKnowledge.READ_CALLS, call).isPresent()
        || call.owner().equals("java.lang.StringBuilder")) {
      return;
    }
    List<MethodFacts> targets = program.targets(op);
    if (targets.isEmpty() || targets.size() > MAX_TARGETS || depth >= MAX_DEPTH) {
      readOnly = false;
      return;
    }
    for (MethodFacts target : targets) {
      if (!target.regions().isEmpty() || !visiting.add(target.ref())) {
        readOnly = false; // it takes a lock of its own, or calls itself
        return;
      }
      scan(target, target.ops(), depth + 1);
      visiting.remove(target.ref());
    }
  }

  /**
   * The field as the class that declares it names it: a class file names a field by the class of
   * the expression it is read through, which may be a subclass.
   */
  static FieldRef declaring(Program program, FieldRef field) {
    String type = field.owner();
    for (int i = 0; type != null && i < 20; i++) {
      ClassFacts facts = program.classFacts(type);
      if (facts == null) {
        return field;
      }
      if (facts.field(field.name()) != null) {
        return type.equals(field.owner())
            ? field
            : new FieldRef(type, field.name(), field.descriptor());
      }
      type = facts.superName();
    }
    return field;
  }

  /** A {@code static final} primitive or {@code String}: a constant, no state. */
  static boolean isConstant(Program program, FieldRef field) {
    ClassFacts owner = program.classFacts(field.owner());
    FieldFacts facts = owner == null ? null : owner.field(field.name());
    return facts != null
        && facts.isStatic()
        && facts.isFinal()
        && (field.descriptor().length() == 1 || field.descriptor().equals("Ljava/lang/String;"));
  }

  static String simple(String binaryName) {
    return binaryName.substring(binaryName.lastIndexOf('.') + 1).replace('$', '.');
  }
}
