package io.github.lockjaw.checks.readmostly;

import static com.google.errorprone.BugPattern.LinkType.CUSTOM;
import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.fixes.SuggestedFix;
import com.google.errorprone.matchers.Description;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.util.TreePath;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import io.github.lockjaw.checks.support.FieldAccesses;
import io.github.lockjaw.checks.support.ModelChecker;
import io.github.lockjaw.common.LockjawDocs;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import io.github.lockjaw.model.source.CompilationModel;
import java.util.Optional;

/**
 * An accessor or lookup that takes a monitor every caller shares on every call only to read or copy
 * state that only start-up, registration, refresh or configuration code writes. Readers then queue
 * behind each other for nothing: Spring 2.5.1's {@code DefaultListableBeanFactory} copied every
 * bean name under {@code synchronized (this.beanDefinitionMap)} on each type lookup (198 of 248
 * threads BLOCKED, fixed in 2.5.2), Spring 5.1's {@code getBeanFactory()} read its field under
 * {@code synchronized (this.beanFactoryMonitor)} on every {@code getBean} (fixed in 5.1.16 with a
 * {@code volatile} field). The query is {@link ReadMostlyQuery}, shared with the bytecode engine;
 * the fix makes one field volatile ({@link VolatileFieldFix}).
 */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "A shared lock taken on every call only to read or copy state that only start-up,"
            + " registration, refresh or configuration code writes: readers queue behind each"
            + " other for nothing",
    severity = WARNING,
    linkType = CUSTOM,
    link = LockjawDocs.BASE + "ReadMostlyStateUnderLock.md",
    tags = BugPattern.StandardTags.PERFORMANCE)
public final class ReadMostlyStateUnderLock extends ModelChecker {
  private static final ModelQuery QUERY = new ReadMostlyQuery();

  @Override
  protected ModelQuery query() {
    return QUERY;
  }

  @Override
  protected Description describe(ModelFinding finding, TreePath anchor, VisitorState state) {
    String noFix = null;
    Optional<SuggestedFix> fix = Optional.empty();
    if (finding.detail() instanceof ReadMostlyQuery.Detail detail) {
      if (detail.state().size() != 1 || detail.copies()) {
        noFix = "publishing a snapshot needs the writers changed too";
      } else {
        VarSymbol field = fieldRead(finding, detail, state);
        if (field == null) {
          noFix = "the region reads the field in a method it calls";
        } else {
          FieldAccesses accesses =
              FieldAccesses.of(new TreePath(state.getPath().getCompilationUnit()));
          noFix =
              VolatileFieldFix.whyNot(
                  field, detail.stateReads().size(), detail.state().size(), accesses, state);
          if (noFix == null) {
            fix = VolatileFieldFix.of(anchor.getLeaf(), field, accesses, state);
            if (fix.isEmpty()) {
              noFix = "lockjaw could not rewrite this declaration";
            }
          }
        }
      }
    }
    String message = finding.message();
    if (noFix != null) {
      message += " (No automatic fix: " + noFix + ".)";
    }
    Description.Builder description = buildDescription(anchor.getLeaf()).setMessage(message);
    fix.ifPresent(description::addFix);
    return description.build();
  }

  /** The field of the state, from a read of it in the region itself; null when there is none. */
  private static VarSymbol fieldRead(
      ModelFinding finding, ReadMostlyQuery.Detail detail, VisitorState state) {
    for (ReadOnlyCode.Read read : detail.stateReads()) {
      if (!read.in().ref().equals(finding.method().ref())) {
        continue;
      }
      TreePath tree =
          CompilationModel.of(state).origins().op(finding.method().ref(), read.op().index());
      if (tree != null && tree.getLeaf() instanceof ExpressionTree expression) {
        return FieldAccesses.fieldOf(expression);
      }
    }
    return null;
  }
}
