package io.github.lockjaw.model;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The model as text, independent of operation numbering: values that are results of operations are
 * written as those operations ({@code java.util.Map.get(this.cache, param0)}). Tests compare what
 * the two front-ends read of the same code this way, and a person can read what lockjaw saw.
 */
public final class ModelText {
  private static final int MAX_DEPTH = 4;

  private ModelText() {}

  /** A value, with results written as the calls that produced them. */
  public static String describe(Value value, MethodFacts method) {
    return describe(value, method, 0);
  }

  private static String describe(Value value, MethodFacts method, int depth) {
    if (value == null) {
      return "-";
    }
    if (value instanceof Value.FieldValue field) {
      String base =
          field.base() == null
              ? simple(field.field().owner())
              : describe(field.base(), method, depth + 1);
      return base + "." + field.field().name();
    }
    if (value instanceof Value.Result result) {
      Op op = method.producer(result);
      if (op == null || depth > MAX_DEPTH) {
        return "result";
      }
      return call(op, method, depth + 1);
    }
    if (value instanceof Value.Lambda lambda) {
      return "λ " + (lambda.body().isLambdaBody() ? lambda.body().name() : lambda.body().display());
    }
    return value.toString();
  }

  private static String call(Op op, MethodFacts method, int depth) {
    String target =
        op.kind() == Op.Kind.NEW
            ? "new " + simple(op.method().owner())
            : simple(op.method().owner()) + "." + op.method().name();
    List<String> operands = new ArrayList<>();
    if (op.receiver() != null) {
      operands.add(describe(op.receiver(), method, depth));
    }
    for (Value arg : op.args()) {
      operands.add(describe(arg, method, depth));
    }
    return target + "(" + String.join(", ", operands) + ")";
  }

  private static String simple(String binaryName) {
    return binaryName.substring(binaryName.lastIndexOf('.') + 1);
  }

  /**
   * One line per operation (returns left out, duplicates merged): what it does, and where it runs
   * ({@code locked by}, {@code loop depth}, {@code if}, {@code in catch}). A comparison of two
   * front-ends compares these lines as sets.
   */
  public static TreeSet<String> operations(MethodFacts method) {
    TreeSet<String> lines = new TreeSet<>();
    for (Op op : method.ops()) {
      if (op.kind() == Op.Kind.RETURN || op.context() == Context.NONE) {
        continue;
      }
      lines.add(line(op, method));
    }
    return lines;
  }

  /** One operation as a line (see {@link #operations}). */
  public static String line(Op op, MethodFacts method) {
    StringBuilder line = new StringBuilder();
    switch (op.kind()) {
      case GET_FIELD ->
          line.append("read ")
              .append(describe(new Value.FieldValue(op.field(), op.receiver()), method));
      case PUT_FIELD ->
          line.append("write ")
              .append(describe(new Value.FieldValue(op.field(), op.receiver()), method))
              .append(" = ")
              .append(describe(op.arg(0), method));
      case THROW -> line.append("throw ").append(describe(op.arg(0), method));
      default -> line.append(call(op, method, 0));
    }
    Context context = op.context();
    if (context.isLocked()) {
      line.append(" locked by ")
          .append(
              context.regions().stream()
                  .map(id -> describe(method.regions().get(id).monitor(), method))
                  .collect(Collectors.joining(" > ")));
    }
    if (context.isInLoop()) {
      line.append(" loop depth ").append(context.loops().size());
    }
    for (Guard guard : context.guards()) {
      line.append(" if ")
          .append(guard.outcome() ? "" : "!")
          .append(describe(guard.subject(), method))
          .append(guard.test() == Guard.Test.NULL ? "==null" : "");
    }
    if (context.inHandler()) {
      line.append(" in catch");
    }
    return line.toString();
  }

  /**
   * One line per loop exit and per varying call of each loop, independent of operation numbering:
   * {@code loop 0 exit [!Thread.isAlive(param0)]}, {@code loop 0 exit [!?] stores
   * [Thread.isAlive(param0)]}, {@code loop 0 varying Thread.isAlive(?)}. A comparison of two
   * front-ends compares these lines.
   */
  public static TreeSet<String> loops(MethodFacts method) {
    TreeSet<String> lines = new TreeSet<>();
    for (Loop loop : method.loops()) {
      String head = "loop " + loop.id() + " depth " + depth(method, loop);
      for (LoopExit exit : loop.exits()) {
        StringBuilder line = new StringBuilder(head).append(" exit [");
        line.append(guards(exit.guards(), method)).append("]");
        if (!exit.stores().isEmpty()) {
          line.append(" stores [");
          List<String> stores = new ArrayList<>();
          for (LocalStore store : exit.stores()) {
            stores.add(
                describe(store.value(), method)
                    + (store.guards().isEmpty() ? "" : " if " + guards(store.guards(), method)));
          }
          line.append(String.join("; ", new TreeSet<>(stores))).append("]");
        }
        lines.add(line.toString());
      }
      for (int op : loop.varying()) {
        if (op < method.ops().size()) {
          lines.add(head + " varying " + call(method.ops().get(op), method, 0));
        }
      }
    }
    return lines;
  }

  private static int depth(MethodFacts method, Loop loop) {
    int depth = 1;
    for (int p = loop.parent(); p >= 0 && depth < 50; p = method.loops().get(p).parent()) {
      depth++;
    }
    return depth;
  }

  private static String guards(List<Guard> guards, MethodFacts method) {
    List<String> parts = new ArrayList<>();
    for (Guard guard : guards) {
      parts.add(
          (guard.outcome() ? "" : "!")
              + describe(guard.subject(), method)
              + switch (guard.test()) {
                case NULL -> "==null";
                case POSITIVE -> ">0";
                case TRUE -> "";
              });
    }
    return String.join(", ", parts);
  }

  /** The whole class, a block per method. */
  public static String of(ClassFacts facts) {
    StringBuilder out = new StringBuilder();
    out.append("class ").append(facts.name());
    if (facts.superName() != null) {
      out.append(" extends ").append(facts.superName());
    }
    if (!facts.interfaces().isEmpty()) {
      out.append(" implements ").append(String.join(", ", facts.interfaces()));
    }
    out.append('\n');
    for (MethodFacts method : facts.methods()) {
      out.append("  method ").append(method.ref().name()).append(method.ref().descriptor());
      if (method.isSynchronized()) {
        out.append(" synchronized");
      }
      out.append('\n');
      for (String line : operations(method)) {
        out.append("    ").append(line).append('\n');
      }
    }
    return out.toString();
  }
}
