package io.github.lockjaw.checks.http;

import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Value;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Objects that live for one request: created with {@code new} in a method requests run, used there
 * and dropped (not stored in a field, not handed to other code, not thrown; returned only to a
 * caller that does the same). A client such an object builds in its constructor, or in a field
 * initializer, is a client per request however shared its field looks.
 */
final class PerRequestObjects {
  private static final int DEPTH = 3;

  private final RequestScope scope;

  PerRequestObjects(RequestScope scope) {
    this.scope = scope;
  }

  /**
   * Where a request creates an object that the constructor {@code constructor} initialises (a
   * {@code new} of its class, or of a subclass whose constructor calls it) and drops it after the
   * call; empty when no request does.
   */
  Optional<Program.CallSite> perRequestCreation(MethodRef constructor) {
    return perRequestCreation(constructor, 0, new HashSet<>());
  }

  private Optional<Program.CallSite> perRequestCreation(
      MethodRef constructor, int depth, Set<MethodRef> seen) {
    if (depth > DEPTH || !seen.add(constructor)) {
      return Optional.empty();
    }
    Program program = scope.context().program();
    for (Program.CallSite site : program.callersOf(constructor)) {
      Op op = site.op();
      MethodFacts caller = site.caller();
      if (op.kind() == Op.Kind.INVOKE_SPECIAL
          && caller.ref().isConstructor()
          && op.receiver() instanceof Value.This) {
        // super(...) or this(...): the object is whatever the calling constructor makes
        Optional<Program.CallSite> outer = perRequestCreation(caller.ref(), depth + 1, seen);
        if (outer.isPresent()) {
          return outer;
        }
      } else if (op.kind() == Op.Kind.NEW
          && scope.perRequest(caller)
          && livesForTheCall(caller, new Value.Result(op.index()), depth)) {
        return Optional.of(site);
      }
    }
    return Optional.empty();
  }

  /** Whether the object is used in the method and dropped, or returned to callers that drop it. */
  private boolean livesForTheCall(MethodFacts method, Value object, int depth) {
    boolean returned = false;
    for (Op op : method.ops()) {
      switch (op.kind()) {
        case PUT_FIELD, THROW -> {
          if (op.args().contains(object)) {
            return false;
          }
        }
        case RETURN -> returned |= op.args().contains(object);
        case GET_FIELD -> {
          // nothing to follow
        }
        default -> {
          if (op.args().contains(object)) {
            return false; // handed to code that may keep it
          }
        }
      }
    }
    if (!returned) {
      return true;
    }
    if (depth >= DEPTH || method.ref().isLambdaBody()) {
      return false; // a lambda returns to the code it was handed to (a map's computeIfAbsent)
    }
    Program program = scope.context().program();
    for (Program.CallSite site : program.callersOf(method.ref())) {
      if (program.targets(site.op()).contains(method)
          && scope.perRequest(site.caller())
          && livesForTheCall(site.caller(), new Value.Result(site.op().index()), depth + 1)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether code of the class (or a superclass) sends a request through the client held in {@code
   * field}: {@code this.client.execute(...)}.
   */
  static boolean sendsThrough(Program program, String className, FieldRef field) {
    Set<String> seen = new HashSet<>();
    for (String type = className; type != null && seen.add(type); ) {
      ClassFacts facts = program.classFacts(type);
      if (facts == null) {
        return false;
      }
      for (MethodFacts method : facts.methods()) {
        for (Op op : method.ops()) {
          if (op.receiver() instanceof Value.FieldValue held
              && held.field().equals(field)
              && (held.base() == null || held.base() instanceof Value.This)
              && HttpCalls.isRequest(program, op)) {
            return true;
          }
        }
      }
      type = facts.superName();
    }
    return false;
  }
}
