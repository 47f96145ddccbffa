package io.github.lockjaw.checks.resources;

import static com.google.errorprone.BugPattern.LinkType.CUSTOM;
import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.matchers.Description;
import com.google.errorprone.util.ASTHelpers;
import com.google.errorprone.util.Reachability;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.code.Type;
import io.github.lockjaw.checks.cache.MapKnowledge;
import io.github.lockjaw.checks.dao.SharedMonitor;
import io.github.lockjaw.checks.dao.SharedMonitorRegionChecker;
import io.github.lockjaw.checks.support.CatalogMethods;
import io.github.lockjaw.checks.support.EntryPoints;
import io.github.lockjaw.checks.support.FieldAccesses;
import io.github.lockjaw.checks.support.ImmediateCodeScanner;
import io.github.lockjaw.checks.support.LifecyclePaths;
import io.github.lockjaw.checks.support.MoreTrees;
import io.github.lockjaw.common.LockjawDocs;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.knowledge.Lifecycle;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.ElementKind;

/**
 * A monitor every request shares, held while the code searches the class path, probes or scans jars
 * and zips, asks the servlet container for a resource or walks a directory tree: each lookup waits
 * for all the ones before it. Tomcat 7's {@code WebappClassLoader} probed every {@code WEB-INF/lib}
 * jar under {@code synchronized (jarFiles)} on each class and resource lookup; WebJars served each
 * static asset by scanning the class path under a JVM-wide lock.
 */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "Class-path, jar or file-tree lookups under a monitor that every request shares:"
            + " each lookup waits for the file-system work of all the ones before it",
    severity = WARNING,
    linkType = CUSTOM,
    link = LockjawDocs.BASE + "ResourceLookupUnderLock.md",
    tags = BugPattern.StandardTags.PERFORMANCE)
public final class ResourceLookupUnderLock extends SharedMonitorRegionChecker {
  private static final CatalogMethods LOOKUPS = CatalogMethods.of(Kind.Resources.RESOURCE_LOOKUP);
  private static final List<String> ARCHIVE_TYPES = Kind.Resources.ARCHIVE_TYPE.index().typeNames();

  @Override
  protected Description matchRegion(
      Tree region, BlockTree body, SharedMonitor monitor, VisitorState state) {
    TreePath path = state.getPath();
    MethodTree method = SharedMonitor.enclosingMethod(path);
    if (method == null || !isPerRequestPath(method, state) || isPerArchiveLock(monitor, state)) {
      return Description.NO_MATCH;
    }
    Map<MethodSymbol, MethodTree> declared = MoreTrees.declaredMethods(path.getCompilationUnit());
    List<String> chain = lookupChain(body, declared, new HashSet<>(), state);
    if (chain.isEmpty()
        || isOneTimeInitialisation(body, method)
        || isMemoisedPerKey(body, declared, state)) {
      return Description.NO_MATCH;
    }
    if (LifecyclePaths.of(state, m -> !isPerRequestPath(m, state)).isLifecycleOnly(path)) {
      return Description.NO_MATCH; // reached only from set-up or configuration code
    }
    String name =
        region instanceof MethodTree
            ? method.getName() + "()"
            : "The synchronized block in " + method.getName() + "()";
    String message =
        name
            + " holds "
            + monitor.describe()
            + " while it calls "
            + String.join(", which calls ", chain)
            + ": every request that looks a resource up waits for the lookups of all the ones before it."
            + " Index the resources once at start-up (an immutable map), or memoise each lookup per"
            + " name in a ConcurrentHashMap, and look up without the lock."
            + " (No automatic fix: lockjaw cannot tell what else the lock keeps consistent.)";
    return buildDescription(region).setMessage(message).build();
  }

  /** Not a constructor, set-up, configuration, lifecycle or one-shot method. */
  private static boolean isPerRequestPath(MethodTree method, VisitorState state) {
    MethodSymbol symbol = ASTHelpers.getSymbol(method);
    return symbol != null
        && !symbol.isConstructor()
        && !symbol.isStaticOrInstanceInit()
        && !Lifecycle.isConfigurationName(method.getName().toString())
        && !EntryPoints.isSetUp(method, state)
        && !EntryPoints.isOneShot(method, state);
  }

  /** {@code synchronized (zipFile)}: the lock of one archive, not one that every request shares. */
  private static boolean isPerArchiveLock(SharedMonitor monitor, VisitorState state) {
    if (monitor.kind() != SharedMonitor.Kind.FIELD
        || !(monitor.symbol() instanceof VarSymbol field)) {
      return false;
    }
    for (String archive : ARCHIVE_TYPES) {
      Type type = state.getTypeFromString(archive);
      if (type != null && ASTHelpers.isSubtype(field.type, type, state)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The calls from {@code tree} to a resource lookup: the lookup itself, or a method of this file
   * that makes one, then its chain. Lambdas and classes inside run later, without the lock.
   */
  private static List<String> lookupChain(
      Tree tree,
      Map<MethodSymbol, MethodTree> declared,
      Set<MethodSymbol> visiting,
      VisitorState state) {
    List<String> found = new ArrayList<>();
    new ImmediateCodeScanner<Void, Void>() {
      @Override
      public Void scan(Tree node, Void unused) {
        return found.isEmpty() ? super.scan(node, unused) : null;
      }

      @Override
      public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
        MethodSymbol method = ASTHelpers.getSymbol(call);
        Optional<KnowledgeIndex.MethodEntry> lookup = LOOKUPS.match(method, state);
        if (lookup.isPresent()) {
          String what =
              lookup.get().attribute("what").map(w -> " (" + w.replace('-', ' ') + ")").orElse("");
          found.add(method.owner.getSimpleName() + "." + method.getSimpleName() + "()" + what);
          return null;
        }
        MethodTree callee = method == null ? null : declared.get(method);
        if (callee != null
            && callee.getBody() != null
            && visiting.add(method)
            && !Lifecycle.isConfigurationName(method.getSimpleName().toString())) {
          List<String> rest = lookupChain(callee.getBody(), declared, visiting, state);
          if (!rest.isEmpty()) {
            found.add(method.getSimpleName() + "()");
            found.addAll(rest);
            return null;
          }
        }
        return super.visitMethodInvocation(call, null);
      }
    }.scan(tree, null);
    return found;
  }

  /**
   * A one-time initialisation: the region assigns a field that the method tests in a condition
   * ({@code if (index == null)}, {@code if (loaded) return ...}), so once it is set the lookup does
   * not run again (a double-checked, lazily built index; a configuration loaded once).
   */
  private static boolean isOneTimeInitialisation(Tree body, MethodTree method) {
    Set<Symbol> assigned = new HashSet<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitAssignment(AssignmentTree node, Void unused) {
        VarSymbol field = FieldAccesses.ownFieldOf(node.getVariable());
        if (field != null) {
          assigned.add(field);
        }
        return super.visitAssignment(node, null);
      }
    }.scan(body, null);
    if (assigned.isEmpty()) {
      return false;
    }
    boolean[] tested = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitIf(IfTree node, Void unused) {
        new TreeScanner<Void, Void>() {
          @Override
          public Void visitIdentifier(IdentifierTree id, Void unused) {
            tested[0] |= assigned.contains(FieldAccesses.fieldOf(id));
            return null;
          }

          @Override
          public Void visitMemberSelect(MemberSelectTree select, Void unused) {
            tested[0] |= assigned.contains(FieldAccesses.ownFieldOf(select));
            return super.visitMemberSelect(select, null);
          }
        }.scan(node.getCondition(), null);
        return super.visitIf(node, null);
      }
    }.scan(method.getBody(), null);
    return tested[0];
  }

  /**
   * A lookup memoised per key: a statement of the region tests a map field for the key and leaves
   * when it is there ({@code if (locales.get(key) != null) return;}, {@code if
   * (loaded.containsKey(key)) throw ...}), and a later statement of the same block puts that key
   * ({@code locales.put(key, key);}) before any lookup: the lookup runs once per key, not per call
   * (Struts 1 {@code PropertyMessageResources.loadLocale}). The key is a local or parameter that is
   * never reassigned; nothing before the put, the leaving branch included, looks anything up.
   */
  private static boolean isMemoisedPerKey(
      Tree body, Map<MethodSymbol, MethodTree> declared, VisitorState state) {
    if (!(body instanceof BlockTree block)) {
      return false;
    }
    List<? extends StatementTree> statements = block.getStatements();
    for (int i = 0; i < statements.size(); i++) {
      StatementTree statement = statements.get(i);
      if (!lookupChain(statement, declared, new HashSet<>(), state).isEmpty()) {
        return false; // a lookup before the test, or in it: it runs on every call
      }
      MapKey tested = statement instanceof IfTree test ? leavingMembershipTest(test, state) : null;
      if (tested == null) {
        continue;
      }
      for (StatementTree later : statements.subList(i + 1, statements.size())) {
        if (tested.equals(putOf(later, state))) {
          return true;
        }
        if (!lookupChain(later, declared, new HashSet<>(), state).isEmpty()) {
          return false; // looked up before the key is recorded
        }
      }
    }
    return false;
  }

  /** A map field and the never-reassigned local or parameter used as its key. */
  private record MapKey(VarSymbol map, VarSymbol key) {}

  /**
   * The map and key of {@code if (map.get(key) != null)} or {@code if (map.containsKey(key))}
   * without an else, whose then-branch cannot complete normally (it returns or throws).
   */
  private static MapKey leavingMembershipTest(IfTree test, VisitorState state) {
    if (test.getElseStatement() != null
        || Reachability.canCompleteNormally(test.getThenStatement())) {
      return null;
    }
    ExpressionTree condition = ASTHelpers.stripParentheses(test.getCondition());
    if (condition instanceof BinaryTree binary && binary.getKind() == Tree.Kind.NOT_EQUAL_TO) {
      ExpressionTree left = ASTHelpers.stripParentheses(binary.getLeftOperand());
      ExpressionTree right = ASTHelpers.stripParentheses(binary.getRightOperand());
      ExpressionTree call =
          left.getKind() == Tree.Kind.NULL_LITERAL
              ? right
              : right.getKind() == Tree.Kind.NULL_LITERAL ? left : null;
      return call instanceof MethodInvocationTree get
              && MapKnowledge.isValueReturningCheckMethod(ASTHelpers.getSymbol(get), state)
          ? mapKey(get)
          : null;
    }
    return condition instanceof MethodInvocationTree contains
            && MapKnowledge.isCheckMethod(ASTHelpers.getSymbol(contains), state)
            && !MapKnowledge.isValueReturningCheckMethod(ASTHelpers.getSymbol(contains), state)
        ? mapKey(contains)
        : null;
  }

  /** The map and key of a statement {@code map.put(key, ...);}, or null. */
  private static MapKey putOf(StatementTree statement, VisitorState state) {
    return statement instanceof ExpressionStatementTree expression
            && expression.getExpression() instanceof MethodInvocationTree put
            && MapKnowledge.isActMethod(ASTHelpers.getSymbol(put), state)
        ? mapKey(put)
        : null;
  }

  private static MapKey mapKey(MethodInvocationTree call) {
    ExpressionTree receiver = ASTHelpers.getReceiver(call);
    VarSymbol map = receiver == null ? null : FieldAccesses.ownFieldOf(receiver);
    if (map == null
        || call.getArguments().isEmpty()
        || !(ASTHelpers.stripParentheses(call.getArguments().get(0)) instanceof IdentifierTree id)
        || !(ASTHelpers.getSymbol(id) instanceof VarSymbol key)
        || (key.getKind() != ElementKind.LOCAL_VARIABLE && key.getKind() != ElementKind.PARAMETER)
        || !ASTHelpers.isConsideredFinal(key)) {
      return null;
    }
    return new MapKey(map, key);
  }
}
