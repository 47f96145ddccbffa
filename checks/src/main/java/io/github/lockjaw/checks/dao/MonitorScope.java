package io.github.lockjaw.checks.dao;

import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.Descriptors;
import io.github.lockjaw.model.Effects;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.Value;
import io.github.lockjaw.model.query.QueryContext;
import io.github.lockjaw.model.query.SharedLock;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who shares a monitor: the regions that hold it (in the class that owns it and the classes nested
 * in the same top-level class), and whether it belongs to one connection, statement, result set, XA
 * branch or stream ({@code resource-type} in {@code jdbc.txt} and {@code io.txt}), so that only the
 * one thread using that resource holds it, not every request.
 */
final class MonitorScope {
  private static final List<String> RESOURCE_TYPES =
      KnowledgeIndex.of(Kind.Jdbc.RESOURCE_TYPE, Kind.Io.RESOURCE_TYPE).typeNames();

  /**
   * A region that holds the monitor.
   *
   * @param method its method
   * @param region its id
   * @param name how a message names it: {@code release()}, {@code the synchronized block in load()}
   * @param doesIo whether it does blocking I/O on every call
   * @param executions the statements it executes on every call (0, 1, or 2 for more)
   */
  record Member(MethodFacts method, int region, String name, boolean doesIo, int executions) {}

  private MonitorScope() {}

  /** The regions of the code around {@code method} that hold {@code lock}, in program order. */
  static List<Member> members(
      QueryContext context, RecurringIo io, SharedLock lock, MethodFacts method) {
    String topLevel = topLevel(method.ref().owner());
    return io.members(lock + " in " + topLevel, () -> membersOf(context, io, lock, topLevel));
  }

  private static List<Member> membersOf(
      QueryContext context, RecurringIo io, SharedLock lock, String topLevel) {
    List<Member> members = new ArrayList<>();
    for (ClassFacts c : context.program().classes()) {
      if (!topLevel(c.name()).equals(topLevel)) {
        continue;
      }
      for (MethodFacts m : c.methods()) {
        for (Region r : m.regions()) {
          if (!SharedLock.isHeldAround(r, m)
              && SharedLock.of(r, m).filter(lock::equals).isPresent()) {
            members.add(
                new Member(
                    m,
                    r.id(),
                    SharedMonitorQuery.name(m, r, false),
                    io.inRegion(m, r).isPresent(),
                    io.executions(m, r)));
          }
        }
      }
    }
    return members;
  }

  private static String topLevel(String binaryName) {
    int dollar = binaryName.indexOf('$');
    return dollar < 0 ? binaryName : binaryName.substring(0, dollar);
  }

  /**
   * Whether the monitor belongs to one resource: the instance of a class that is a connection,
   * statement or stream, or of an inner class of one (c3p0's per-connection invocation handler); a
   * field holding one; or an instance field of such a class (c3p0's statement proxy locks its own
   * set of open result sets).
   */
  static boolean isPerResource(Program program, SharedLock lock, MethodFacts method) {
    return switch (lock.kind()) {
      case INSTANCE -> isPerResourceClass(program, lock.owner());
      case CLASS -> false;
      case FIELD -> {
        String type = Descriptors.toBinaryName(lock.field().descriptor());
        yield (type != null && isResourceType(program, type))
            || (!isStatic(program, lock) && isPerResourceClass(program, method.ref().owner()));
      }
    };
  }

  /** A class that is a resource type, or an inner class (with an outer instance) of one. */
  static boolean isPerResourceClass(Program program, String className) {
    ClassFacts c = program.classFacts(className);
    for (int depth = 0; depth < 8; depth++) {
      if (isResourceType(program, className)) {
        return true;
      }
      if (c == null || c.outer() == null || Modifier.isStatic(c.access())) {
        return false;
      }
      className = c.outer();
      c = program.classFacts(className);
    }
    return false;
  }

  /**
   * Whether the lock belongs to the object, not to its class: the instance monitor or a lock in an
   * instance field.
   */
  static boolean isPerObject(Program program, SharedLock lock) {
    return lock.kind() == SharedLock.Kind.INSTANCE
        || (lock.kind() == SharedLock.Kind.FIELD && !isStatic(program, lock));
  }

  /**
   * Whether blocking I/O works on a connection, statement or channel that the locked object holds
   * in a field of its own (called on {@code this} all the way): the object's lock serialises the
   * use of that one resource by design (a session writing to its own socket), and a connection is
   * not safe for two threads at once anyway.
   */
  static boolean usesOwnResource(Program program, Effects.Effect effect) {
    List<Effects.Step> chain = effect.chain();
    for (int i = 0; i < chain.size(); i++) {
      MethodFacts in = program.method(chain.get(i).in());
      if (in == null || chain.get(i).op() >= in.ops().size()) {
        return false;
      }
      Op op = in.ops().get(chain.get(i).op());
      if (i < chain.size() - 1
          ? !(op.receiver() instanceof Value.This)
          : !isOwnResource(program, in, op.receiver(), 0)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether every object of a class is created for one request and lives only there: the program
   * creates it (at least once), always in methods requests or background tasks reach (not in a
   * constructor or initialiser), and never keeps it in a field or returns it. A lock that belongs
   * to such an object queues no other request ({@code new OrderDraft(ds).save()}).
   */
  static boolean isPerRequestObject(
      QueryContext context, String className, List<Program.CallSite> constructions) {
    for (Program.CallSite site : constructions) {
      MethodFacts m = site.caller();
      MethodRef in = m.enclosing() != null ? m.enclosing() : m.ref();
      if (in.isConstructor()
          || in.isStaticInitializer()
          || !RequestReach.isOnRequestPath(context, m)
          || escapes(m, site.op())
          || leaksItself(context, className)) {
        return false;
      }
    }
    return !constructions.isEmpty();
  }

  /** Every {@code new} of the program, by the class it creates, in program order. */
  static Map<String, List<Program.CallSite>> constructionsByClass(Program program) {
    Map<String, List<Program.CallSite>> sites = new HashMap<>();
    for (ClassFacts c : program.classes()) {
      for (MethodFacts m : c.methods()) {
        for (Op op : m.ops()) {
          if (op.kind() == Op.Kind.NEW) {
            sites
                .computeIfAbsent(op.method().owner(), k -> new ArrayList<>())
                .add(new Program.CallSite(m, op));
          }
        }
      }
    }
    return sites;
  }

  /**
   * Whether a constructor of the class hands its new object to other code, which may keep it:
   * passes {@code this} to a call ({@code pool.setFactory(this)}: commons-dbcp 1.x {@code
   * PoolableConnectionFactory}) or stores it in a field of another object or class.
   */
  private static boolean leaksItself(QueryContext context, String className) {
    ClassFacts c = context.program().classFacts(className);
    if (c == null) {
      return true;
    }
    for (MethodFacts m : c.methods()) {
      if (!m.ref().isConstructor()) {
        continue;
      }
      for (Op op : m.ops()) {
        if (op.kind() != Op.Kind.GET_FIELD
            && !(op.kind() == Op.Kind.PUT_FIELD && op.receiver() instanceof Value.This)
            && op.args().contains(Value.THIS)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether the object an operation creates is kept in a field, returned to the caller, thrown, or
   * handed to other code as an argument (which may keep it).
   */
  private static boolean escapes(MethodFacts method, Op created) {
    Value value = new Value.Result(created.index());
    for (Op op : method.ops()) {
      if (op != created && op.kind() != Op.Kind.GET_FIELD && op.args().contains(value)) {
        return true;
      }
    }
    return false;
  }

  /** A value read from a resource field of {@code this}, or made by a call on one. */
  private static boolean isOwnResource(
      Program program, MethodFacts method, Value value, int depth) {
    if (value instanceof Value.FieldValue field && field.base() instanceof Value.This) {
      String type = Descriptors.toBinaryName(field.field().descriptor());
      return isResourceType(program, type);
    }
    Op producer = method.producer(value);
    return producer != null
        && producer.isCall()
        && depth < 4
        && isOwnResource(program, method, producer.receiver(), depth + 1);
  }

  private static boolean isResourceType(Program program, String type) {
    return program.matchType(RESOURCE_TYPES, type).isPresent();
  }

  private static boolean isStatic(Program program, SharedLock lock) {
    ClassFacts owner = program.classFacts(lock.field().owner());
    for (int depth = 0; owner != null && depth < 8; depth++) {
      var declared = owner.field(lock.field().name());
      if (declared != null) {
        return declared.isStatic();
      }
      owner = owner.superName() == null ? null : program.classFacts(owner.superName());
    }
    return false;
  }
}
