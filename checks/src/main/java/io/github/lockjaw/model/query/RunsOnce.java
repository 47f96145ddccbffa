package io.github.lockjaw.model.query;

import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.Effects;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.Guard;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which operations of a method do not run on every call, as facts of the model: lazy initialisation
 * (the operation runs only while a field of the object or class tests unset, and the code it runs
 * in, or a helper it calls, sets or clears that field: {@code if (pool == null) { ...; pool = ...;
 * }}, {@code if (!loaded) { load(); }} with {@code loaded = true} in {@code load()}, double-checked
 * or with the null test outside the lock), a value created once and kept in a field the method
 * tests ({@code if (connection == null || connection.isClosed()) connection = open();}), and a fill
 * on a map miss ({@code v = map.get(k); if (v == null) { v = create(k); map.put(k, v); }}: once per
 * key).
 */
public final class RunsOnce {
  /** How deep helpers are followed to find the fields they write. */
  private static final int MAX_DEPTH = 8;

  private final Program program;
  private final Map<MethodRef, Set<String>> writtenBy = new HashMap<>();
  private final Map<MethodRef, List<KeyedAccess>> keyedAccesses = new HashMap<>();
  private final Map<MethodRef, Boolean> fillsCalledOnMiss = new HashMap<>();

  public RunsOnce(Program program) {
    this.program = program;
  }

  /** Whether {@code op} of {@code method} runs once (per object, class or key), not per call. */
  public boolean isOnce(MethodFacts method, Op op) {
    return lazyField(method, op).isPresent()
        || isFillOnMiss(method, op)
        || isKeptInTestedField(method, op)
        || isFillCalledOnMiss(method);
  }

  /**
   * Whether a whole method runs once per key: it is private, every call of it runs only when the
   * caller's read of a map of the same object or class missed and passes the key it read, and the
   * method puts that key in that map. The double-checked cache whose lock is taken only on a miss:
   * {@code Properties p = skins.get(name); return p != null ? p : loadSkin(name);} with {@code
   * skins.put(name, loaded)} in {@code synchronized loadSkin(String name)}.
   */
  public boolean isFillCalledOnMiss(MethodFacts method) {
    return fillsCalledOnMiss.computeIfAbsent(method.ref(), k -> fillCalledOnMiss(method));
  }

  private boolean fillCalledOnMiss(MethodFacts method) {
    if (!method.isPrivate() || method.ref().isLambdaBody()) {
      return false;
    }
    List<KeyedAccess> puts = new ArrayList<>();
    for (KeyedAccess access : accessesIn(method)) {
      if (access.isWrite()
          && access.key() instanceof Value.Param
          && access.container() instanceof Value.FieldValue map
          && isOwn(map.base())) {
        puts.add(access);
      }
    }
    List<Program.CallSite> sites = program.callersOf(method.ref());
    if (puts.isEmpty() || sites.isEmpty() || isHandedOn(method)) {
      return false;
    }
    for (Program.CallSite site : sites) {
      if (!isOwn(site.op().receiver()) || !callsOnMissOfItsKey(site, puts)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether analysed code hands the method on as a method reference ({@code
   * names.forEach(this::loadSkin)}, also from a nested class): whoever it is handed to may call it
   * on every call. Asked only of private fills, so reading every class is rare.
   */
  private boolean isHandedOn(MethodFacts method) {
    for (ClassFacts c : program.classes()) {
      for (MethodFacts other : c.methods()) {
        for (Op op : other.ops()) {
          for (Value arg : op.args()) {
            if (arg instanceof Value.Lambda lambda && lambda.body().equals(method.ref())) {
              return true;
            }
          }
        }
      }
    }
    return false;
  }

  /** The call passes a key its method read from one of the maps and runs only on that miss. */
  private boolean callsOnMissOfItsKey(Program.CallSite site, List<KeyedAccess> puts) {
    Op call = site.op();
    for (KeyedAccess put : puts) {
      Value key = call.arg(((Value.Param) put.key()).index());
      for (KeyedAccess read : accessesIn(site.caller())) {
        if (!read.isWrite()
            && !key.isOpaque()
            && read.key().equals(key)
            && read.container().equals(put.container())
            && read.guardsAsMiss(call)) {
          return true;
        }
      }
    }
    return false;
  }

  private List<KeyedAccess> accessesIn(MethodFacts method) {
    return keyedAccesses.computeIfAbsent(method.ref(), k -> KeyedAccess.in(program, method));
  }

  /**
   * The field whose test makes {@code op} run once: a guard of the operation tests a field of the
   * object or class, and code under the same guard (or a helper it calls) writes that field.
   */
  public Optional<FieldRef> lazyField(MethodFacts method, Op op) {
    for (Guard guard : op.context().guards()) {
      FieldRef field = ownField(guard.subject());
      if (field != null && isWrittenUnder(method, guard, field)) {
        return Optional.of(field);
      }
    }
    return Optional.empty();
  }

  /** Whether a guard holds exactly while its field is unset: {@code f == null} or {@code !f}. */
  public static boolean testsUnset(Guard guard) {
    return guard.test() == Guard.Test.NULL ? guard.outcome() : !guard.outcome();
  }

  /** The field a value reads from this object or a static field; {@code null} for others. */
  public static FieldRef ownField(Value value) {
    return value instanceof Value.FieldValue field
            && (field.base() == null || field.base() instanceof Value.This)
        ? field.field()
        : null;
  }

  private boolean isWrittenUnder(MethodFacts method, Guard guard, FieldRef field) {
    String key = key(field);
    for (Op other : method.ops()) {
      if (!other.context().guards().contains(guard)) {
        continue;
      }
      if (other.kind() == Op.Kind.PUT_FIELD
          && isOwn(other.receiver())
          && key.equals(key(other.field()))) {
        return true;
      }
      if (runsOnItsOwnObject(other)) {
        for (MethodFacts target : program.targets(other)) {
          if (fieldsWrittenBy(target.ref(), 0).contains(key)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** The fields (name and type) a method writes on its object or class, or through its helpers. */
  private Set<String> fieldsWrittenBy(MethodRef ref, int depth) {
    Set<String> known = writtenBy.get(ref);
    if (known != null) {
      return known;
    }
    Set<String> fields = new HashSet<>();
    writtenBy.put(ref, fields); // a cycle adds nothing new
    MethodFacts method = program.method(ref);
    if (method == null || depth > MAX_DEPTH) {
      return fields;
    }
    for (Op op : method.ops()) {
      if (op.kind() == Op.Kind.PUT_FIELD
          && (op.receiver() == null || op.receiver() instanceof Value.This)) {
        fields.add(key(op.field()));
      } else if (runsOnItsOwnObject(op) && !op.context().inHandler()) {
        for (MethodFacts target : program.targets(op)) {
          fields.addAll(fieldsWrittenBy(target.ref(), depth + 1));
        }
      }
    }
    return fields;
  }

  /**
   * A call whose writes to its own object are writes to the caller's: a static helper or a method
   * called on {@code this}. A call on another object (a pool's {@code close()} setting the pool's
   * own {@code closed}) writes that object's fields, whatever their names.
   */
  private static boolean runsOnItsOwnObject(Op op) {
    return op.kind() == Op.Kind.INVOKE_STATIC
        || ((op.kind() == Op.Kind.INVOKE_VIRTUAL || op.kind() == Op.Kind.INVOKE_SPECIAL)
            && op.receiver() instanceof Value.This);
  }

  private static boolean isOwn(Value receiver) {
    return receiver == null || receiver instanceof Value.This;
  }

  private static String key(FieldRef field) {
    return field.name() + ":" + field.descriptor();
  }

  /** The operation runs when a map read missed, and the same branch puts that key in that map. */
  private boolean isFillOnMiss(MethodFacts method, Op op) {
    List<KeyedAccess> accesses = accessesIn(method);
    for (KeyedAccess read : accesses) {
      if (read.isWrite() || read.key().isOpaque()) {
        continue;
      }
      for (Guard guard : op.context().guards()) {
        if (!read.isMiss(guard)) {
          continue;
        }
        for (KeyedAccess write : accesses) {
          if (write.isWrite()
              && write.op().context().guards().contains(guard)
              && write.container().equals(read.container())
              && write.key().equals(read.key())) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * The operation's result is kept in a field of the object or class that the method tests before
   * it: a single connection or lookup made when the field is unset or stale, kept for the calls
   * after.
   */
  private static boolean isKeptInTestedField(MethodFacts method, Op op) {
    if (!op.isCall()) {
      return false;
    }
    Value result = new Value.Result(op.index());
    Set<String> kept = new HashSet<>();
    for (Op other : method.ops()) {
      if (other.kind() == Op.Kind.PUT_FIELD
          && (other.receiver() == null || other.receiver() instanceof Value.This)
          && other.args().contains(result)) {
        kept.add(key(other.field()));
      }
    }
    if (kept.isEmpty()) {
      return false;
    }
    for (Op other : method.ops().subList(0, op.index())) {
      for (Guard guard : other.context().guards()) {
        FieldRef tested = ownField(guard.subject());
        if (tested != null && kept.contains(key(tested))) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether a call along an effect's chain, after its first, runs once rather than on every call:
   * the effect is then a one-time cost of the first call, not a cost of each.
   */
  public boolean isOnceAlong(Effects.Effect effect) {
    List<Effects.Step> chain = effect.chain();
    for (int i = 1; i < chain.size(); i++) {
      Effects.Step step = chain.get(i);
      MethodFacts in = program.method(step.in());
      if (in != null
          && step.op() >= 0
          && step.op() < in.ops().size()
          && isOnce(in, in.ops().get(step.op()))) {
        return true;
      }
    }
    return false;
  }
}
