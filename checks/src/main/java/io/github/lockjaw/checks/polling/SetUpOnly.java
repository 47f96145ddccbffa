package io.github.lockjaw.checks.polling;

import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Reachability;
import io.github.lockjaw.model.Reachability.Origin;
import io.github.lockjaw.model.query.QueryContext;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Whether a wait runs only while the program sets up, shuts down or tests, by the call graph: test
 * code, or a helper that {@link Reachability} reaches only from start-up, configuration or shutdown
 * entry points (Tomcat's {@code stop()} → {@code clearReferences()} → {@code
 * clearReferencesThreads()}, which gives each leftover thread two seconds to end). Not so for code
 * that may run later or elsewhere: a lambda or a method of an anonymous or local class, an override
 * (callers of the method it overrides may be anywhere), a method nothing in the analysed code calls
 * (an entry point of its own: a {@code stop()} that spins, a {@code main}), and code that a {@code
 * main} method reaches (a load-test client's main is the program's whole run).
 */
final class SetUpOnly {
  private static final Set<Origin> OFF_REQUEST = EnumSet.of(Origin.LIFECYCLE, Origin.TEST);

  private SetUpOnly() {}

  static boolean holds(QueryContext context, MethodFacts method) {
    Reachability reach = context.reachability();
    Set<Origin> origins = reach.originsOf(method.ref());
    if (origins.isEmpty() || !OFF_REQUEST.containsAll(origins)) {
      return false;
    }
    if (origins.equals(EnumSet.of(Origin.TEST))) {
      return true; // test code
    }
    Program program = context.program();
    if (mayRunElsewhere(program, method) || program.callersOf(method.ref()).isEmpty()) {
      return false;
    }
    // every chain of callers ends in a start-up, configuration or shutdown entry point
    Map<MethodRef, Boolean> known = new HashMap<>();
    Deque<MethodRef> work = new ArrayDeque<>();
    Set<MethodRef> seen = new HashSet<>();
    work.add(method.ref());
    while (!work.isEmpty()) {
      MethodRef current = work.poll();
      if (!seen.add(current) || known.containsKey(current)) {
        continue;
      }
      for (Program.CallSite site : program.callersOf(current)) {
        MethodFacts caller = site.caller();
        if (site.op().kind() == Op.Kind.INVOKE_VIRTUAL
            && !site.op().method().owner().equals(current.owner())) {
          return false; // a call through a supertype: lockjaw cannot tell which callers reach it
        }
        Set<Origin> callerOrigins = reach.originsOf(caller.ref());
        if (mayRunElsewhere(program, caller) && !caller.ref().isConstructor()) {
          return false;
        }
        if (caller.ref().isConstructor() || caller.ref().isStaticInitializer()) {
          continue; // an object or class being built: set-up
        }
        if (callerOrigins.isEmpty() || !OFF_REQUEST.containsAll(callerOrigins)) {
          return false;
        }
        if (isMain(caller)) {
          return false;
        }
        if (!program.callersOf(caller.ref()).isEmpty()) {
          work.add(caller.ref());
        }
      }
    }
    return true;
  }

  /** Code whose callers lockjaw cannot place: lambdas, local and anonymous classes, overrides. */
  private static boolean mayRunElsewhere(Program program, MethodFacts method) {
    MethodRef ref = method.ref();
    if (ref.isLambdaBody() || isLocalClass(ref.owner())) {
      return true;
    }
    return !method.isPrivate()
        && !method.isStatic()
        && !ref.isConstructor()
        && overridesSomething(program, ref);
  }

  private static boolean isLocalClass(String name) {
    int dollar = name.lastIndexOf('$');
    return dollar >= 0 && dollar + 1 < name.length() && Character.isDigit(name.charAt(dollar + 1));
  }

  private static boolean overridesSomething(Program program, MethodRef ref) {
    ClassFacts owner = program.classFacts(ref.owner());
    if (owner == null) {
      return false;
    }
    Deque<String> work = new ArrayDeque<>();
    if (owner.superName() != null) {
      work.add(owner.superName());
    }
    work.addAll(owner.interfaces());
    Set<String> seen = new HashSet<>();
    while (!work.isEmpty()) {
      String type = work.poll();
      if (!seen.add(type)) {
        continue;
      }
      ClassFacts facts = program.classFacts(type);
      if (facts == null) {
        continue;
      }
      for (MethodFacts m : facts.methods()) {
        if (m.ref().name().equals(ref.name()) && m.ref().descriptor().equals(ref.descriptor())) {
          return true;
        }
      }
      if (facts.superName() != null) {
        work.add(facts.superName());
      }
      work.addAll(facts.interfaces());
    }
    return false;
  }

  private static boolean isMain(MethodFacts m) {
    return m.isStatic()
        && m.ref().name().equals("main")
        && m.ref().descriptor().equals("([Ljava/lang/String;)V");
  }
}
