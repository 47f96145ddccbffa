package io.github.lockjaw.checks.readmostly;

import static com.google.errorprone.BugPattern.LinkType.CUSTOM;
import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.fixes.SuggestedFix;
import com.google.errorprone.matchers.Description;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import io.github.lockjaw.checks.dao.SharedMonitor;
import io.github.lockjaw.checks.dao.SharedMonitorRegionChecker;
import io.github.lockjaw.checks.support.EntryPoints;
import io.github.lockjaw.checks.support.FieldAccesses;
import io.github.lockjaw.checks.support.LifecyclePaths;
import io.github.lockjaw.common.LockjawDocs;
import io.github.lockjaw.knowledge.Lifecycle;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.Modifier;

/**
 * An accessor or lookup that takes a monitor every caller shares on every call only to read or copy
 * state that registration, refresh or configuration methods write. Readers then queue behind each
 * other for nothing: Spring 2.5.1's {@code DefaultListableBeanFactory} copied every bean name under
 * {@code synchronized (this.beanDefinitionMap)} on each type lookup (198 of 248 threads BLOCKED,
 * fixed in 2.5.2), Spring 5.1's {@code getBeanFactory()} read its field under {@code synchronized
 * (this.beanFactoryMonitor)} on every {@code getBean} (fixed in 5.1.16 with a {@code volatile}
 * field).
 */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "A shared lock taken on every call only to read or copy state that only registration,"
            + " refresh or configuration code writes: readers queue behind each other for nothing",
    severity = WARNING,
    linkType = CUSTOM,
    link = LockjawDocs.BASE + "ReadMostlyStateUnderLock.md",
    tags = BugPattern.StandardTags.PERFORMANCE)
public final class ReadMostlyStateUnderLock extends SharedMonitorRegionChecker {

  @Override
  protected Description matchRegion(
      Tree region, BlockTree body, SharedMonitor monitor, VisitorState state) {
    TreePath path = state.getPath();
    MethodTree method = SharedMonitor.enclosingMethod(path);
    if (method == null || !isHotAccessor(method, state)) {
      return Description.NO_MATCH;
    }
    ReadOnlyRegion read = ReadOnlyRegion.scan(new TreePath(path, body), state);
    if (!read.readOnly() || read.fields().isEmpty() || ReadOnlyRegion.returnsSnapshotFirst(body)) {
      return Description.NO_MATCH;
    }
    if (LifecyclePaths.of(state, m -> isConfiguration(m, state)).isLifecycleOnly(path)) {
      return Description.NO_MATCH; // an accessor that only set-up or configuration code calls
    }
    FieldAccesses accesses = FieldAccesses.of(new TreePath(path.getCompilationUnit()));
    // the state: fields read here that code outside construction writes; all of it in writers
    Set<VarSymbol> readState = new LinkedHashSet<>();
    Set<String> writers = new LinkedHashSet<>();
    for (VarSymbol field : read.fields()) {
      if (accesses.declaration(field) == null) {
        continue; // declared in another file: lockjaw cannot see who writes it
      }
      if (ReadOnlyRegion.mayHoldAccessOrderedMap(field, accesses, state)) {
        return Description.NO_MATCH; // an LRU map: its get() reorders it, the lock guards that
      }
      for (FieldAccesses.Access access : accesses.of(field)) {
        if (!isWrite(access, state) || access.inConstruction()) {
          continue;
        }
        String writer = access.method().getName().toString();
        if (!isConfiguration(access.method(), state)) {
          return Description.NO_MATCH; // written on the request path: the lock guards more
        }
        readState.add(field);
        writers.add(writer + "()");
      }
    }
    if (readState.isEmpty()
        || writers.stream()
            .noneMatch(
                w -> ReadMostlyKnowledge.isPublishingWriterName(w.substring(0, w.length() - 2)))) {
      return Description.NO_MATCH; // no writer registers, refreshes or reloads it
    }

    String name =
        region instanceof MethodTree
            ? method.getName() + "()"
            : "The synchronized block in " + method.getName() + "()";
    List<String> fieldNames = readState.stream().map(f -> "'" + f.getSimpleName() + "'").toList();
    StringBuilder message =
        new StringBuilder()
            .append(name)
            .append(" takes ")
            .append(monitor.describe())
            .append(" on every call only to ")
            .append(read.copies().isEmpty() ? "read " : "copy ")
            .append(String.join(", ", fieldNames))
            .append(read.copies().isEmpty() ? "" : " (" + String.join(", ", read.copies()) + ")")
            .append(", which only ")
            .append(String.join(", ", writers))
            .append(writers.size() == 1 ? " writes" : " write")
            .append(": callers queue on that lock to read state that rarely changes. ");
    Optional<SuggestedFix> fix = Optional.empty();
    String noFix = null;
    if (readState.size() == 1 && read.copies().isEmpty()) {
      VarSymbol field = readState.iterator().next();
      message
          .append("Make '")
          .append(field.getSimpleName())
          .append("' volatile and read it once without the lock.");
      noFix = VolatileFieldFix.whyNot(field, read, accesses, state);
      if (noFix == null) {
        fix = VolatileFieldFix.of(region, field, accesses, state);
        if (fix.isEmpty()) {
          noFix = "lockjaw could not rewrite this declaration";
        }
      }
    } else {
      message.append(
          "Publish an immutable snapshot through a volatile field when the writers"
              + " change it (or keep the state in a ConcurrentHashMap), and read that without the lock.");
      noFix = "publishing a snapshot needs the writers changed too";
    }
    if (noFix != null) {
      message.append(" (No automatic fix: ").append(noFix).append(".)");
    }
    Description.Builder description = buildDescription(region).setMessage(message.toString());
    fix.ifPresent(description::addFix);
    return description.build();
  }

  /** A non-private accessor or lookup by name that is no set-up or configuration step. */
  private static boolean isHotAccessor(MethodTree method, VisitorState state) {
    MethodSymbol symbol = ASTHelpers.getSymbol(method);
    String name = method.getName().toString();
    return symbol != null
        && !symbol.isConstructor()
        && !symbol.getModifiers().contains(Modifier.PRIVATE)
        && ReadMostlyKnowledge.isAccessorName(name)
        && !Lifecycle.isConfigurationName(name)
        && !EntryPoints.isSetUp(method, state);
  }

  private static boolean isConfiguration(MethodTree method, VisitorState state) {
    return Lifecycle.isConfigurationName(method.getName().toString())
        || EntryPoints.isSetUp(method, state);
  }

  /**
   * A write of the field itself, or a change through it ({@code names.add(x)}, {@code a[i] = x}).
   */
  private static boolean isWrite(FieldAccesses.Access access, VisitorState state) {
    if (access.isWrite()) {
      return true;
    }
    if (access.kind() != FieldAccesses.Kind.RECEIVER) {
      return false;
    }
    // a call on the object a reference field holds changes that object, not the field; a call
    // that changes a collection or map the field holds changes the state the lock reads
    return ReadOnlyRegion.holdsStateContents(access, state)
        && !ReadOnlyRegion.isReadOnlyUse(access, state);
  }
}
