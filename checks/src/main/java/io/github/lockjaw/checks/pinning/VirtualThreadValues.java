package io.github.lockjaw.checks.pinning;

import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Value;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which values of the program start virtual threads: what {@code
 * Executors.newVirtualThreadPerTaskExecutor()} or {@code Thread.ofVirtual()} returns ({@code
 * virtual-thread-source}), what is derived from one ({@code virtual-thread-derivation}: a
 * configured builder, its factory, {@code newThreadPerTaskExecutor} over it), and what carries one
 * within the program: a local, a field that every write in the analysed code fills with one, a
 * method whose every {@code return} returns one. Parameters are not followed: a method that takes
 * an executor may be given any.
 */
final class VirtualThreadValues {
  private static final KnowledgeIndex SOURCES = Kind.EntryPoints.VIRTUAL_THREAD_SOURCE.index();
  private static final KnowledgeIndex DERIVATIONS =
      Kind.EntryPoints.VIRTUAL_THREAD_DERIVATION.index();

  private final Program program;
  private final Set<FieldRef> virtualFields = new HashSet<>();
  private final Set<MethodRef> virtualMethods = new HashSet<>();

  /** Where each virtual field or method gets its value, for messages. */
  private final Map<Object, String> origins = new HashMap<>();

  VirtualThreadValues(Program program) {
    this.program = program;
    boolean changed = true;
    while (changed) {
      changed = addVirtualFieldsAndMethods();
    }
  }

  /**
   * The virtual-thread source a value of {@code method} is, as a message names it ({@code
   * Executors.newVirtualThreadPerTaskExecutor()}, {@code field 'workers'}), or empty.
   */
  Optional<String> sourceOf(MethodFacts method, Value value) {
    return sourceOf(method, value, 0);
  }

  private Optional<String> sourceOf(MethodFacts method, Value value, int depth) {
    if (depth > 10) {
      return Optional.empty();
    }
    if (value instanceof Value.FieldValue field && virtualFields.contains(field.field())) {
      return Optional.of(origins.get(field.field()));
    }
    Op producer = method.producer(value);
    if (producer == null || !producer.isCall()) {
      return Optional.empty();
    }
    if (program.match(SOURCES, producer.method()).isPresent() && isCreation(producer)) {
      return Optional.of(display(producer.method()));
    }
    if (program.match(DERIVATIONS, producer.method()).isPresent()) {
      if (producer.receiver() != null) {
        Optional<String> fromReceiver = sourceOf(method, producer.receiver(), depth + 1);
        if (fromReceiver.isPresent()) {
          return fromReceiver;
        }
      }
      for (Value arg : producer.args()) {
        Optional<String> fromArg = sourceOf(method, arg, depth + 1);
        if (fromArg.isPresent()) {
          // an executor over a virtual-thread factory: name both
          return Optional.of(display(producer.method()) + " over " + fromArg.get());
        }
      }
    }
    List<MethodFacts> targets = program.targets(producer);
    if (!targets.isEmpty() && targets.stream().allMatch(t -> virtualMethods.contains(t.ref()))) {
      return Optional.of(origins.get(targets.get(0).ref()));
    }
    return Optional.empty();
  }

  /** A constructor entry matches only a {@code new}, a method entry only a call. */
  private static boolean isCreation(Op op) {
    return op.method().isConstructor() == (op.kind() == Op.Kind.NEW);
  }

  private boolean addVirtualFieldsAndMethods() {
    Map<FieldRef, String> fieldSources = new HashMap<>();
    Set<FieldRef> otherWrites = new HashSet<>();
    Map<MethodRef, String> methodSources = new HashMap<>();
    Set<MethodRef> otherReturns = new HashSet<>();
    for (ClassFacts c : program.classes()) {
      for (MethodFacts m : c.methods()) {
        for (Op op : m.ops()) {
          if (op.kind() == Op.Kind.PUT_FIELD) {
            Optional<String> source = sourceOf(m, op.arg(0));
            if (source.isPresent()) {
              fieldSources.putIfAbsent(op.field(), source.get());
            } else {
              otherWrites.add(op.field());
            }
          } else if (op.kind() == Op.Kind.RETURN && !op.args().isEmpty()) {
            Optional<String> source = sourceOf(m, op.arg(0));
            if (source.isPresent()) {
              methodSources.putIfAbsent(m.ref(), source.get());
            } else {
              otherReturns.add(m.ref());
            }
          }
        }
      }
    }
    boolean changed = false;
    for (Map.Entry<FieldRef, String> field : fieldSources.entrySet()) {
      if (!otherWrites.contains(field.getKey()) && virtualFields.add(field.getKey())) {
        origins.put(field.getKey(), field.getValue());
        changed = true;
      }
    }
    for (Map.Entry<MethodRef, String> method : methodSources.entrySet()) {
      if (!otherReturns.contains(method.getKey()) && virtualMethods.add(method.getKey())) {
        origins.put(method.getKey(), method.getValue());
        changed = true;
      }
    }
    return changed;
  }

  static String display(MethodRef call) {
    if (call.isConstructor()) {
      return "new " + call.owner().substring(call.owner().lastIndexOf('.') + 1) + "(…)";
    }
    return call.display().replace('$', '.') + "()";
  }
}
