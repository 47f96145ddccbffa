package io.github.lockjaw.checks.statistics;

import static com.google.errorprone.BugPattern.LinkType.CUSTOM;
import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.fixes.SuggestedFix;
import com.google.errorprone.matchers.Description;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import io.github.lockjaw.checks.support.ModelChecker;
import io.github.lockjaw.common.LockjawDocs;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import io.github.lockjaw.model.source.CompilationModel;
import io.github.lockjaw.model.source.Origins;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A monitor every request shares, taken on the request path only to update counters, sums, maxima
 * or a map of counters: every request queues on one lock to bump a number. Spring PetClinic's JMX
 * {@code CallMonitoringAspect} did {@code synchronized (this) { callCount++; accumulatedCallTime +=
 * ...; }} around every repository call; removing it was one of three lock fixes that took the field
 * report from 942 to 959 requests/s. The query is {@link StatisticsQuery}, shared with the bytecode
 * engine; the fix moves counts and sums to {@code LongAdder} fields ({@link LongAdderFix}).
 */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "A monitor every request shares, taken on the request path only to update counters,"
            + " sums or maxima: every request queues on one lock to bump a number",
    severity = WARNING,
    linkType = CUSTOM,
    link = LockjawDocs.BASE + "StatisticsUnderSharedLock.md",
    tags = BugPattern.StandardTags.PERFORMANCE)
public final class StatisticsUnderSharedLock extends ModelChecker {
  private static final ModelQuery QUERY = new StatisticsQuery();

  @Override
  protected ModelQuery query() {
    return QUERY;
  }

  @Override
  protected Description describe(ModelFinding finding, TreePath anchor, VisitorState state) {
    Tree region = anchor.getLeaf();
    BlockTree body =
        region instanceof SynchronizedTree block
            ? block.getBlock()
            : region instanceof MethodTree method ? method.getBody() : null;
    List<String> reasons = new ArrayList<>();
    Optional<SuggestedFix> fix = Optional.empty();
    if (body != null && finding.detail() instanceof StatisticsQuery.Detail detail) {
      Origins origins = CompilationModel.of(state).origins();
      List<LongAdderFix.Counter> counters = new ArrayList<>();
      for (CounterUpdates.Update update : detail.updates()) {
        counters.add(
            new LongAdderFix.Counter(
                update.field().name(),
                update.kind(),
                origins.op(finding.method().ref(), update.op())));
      }
      fix = LongAdderFix.build(region, body, counters, detail.lockTakenElsewhere(), state, reasons);
    }
    String message = finding.message();
    if (fix.isEmpty()) {
      message +=
          " (No automatic fix: "
              + (reasons.isEmpty() ? "lockjaw could not rewrite this code" : reasons.get(0))
              + ".)";
    }
    Description.Builder description = buildDescription(region).setMessage(message);
    fix.ifPresent(description::addFix);
    return description.build();
  }
}
