package io.github.lockjaw.checks.heavyweight;

import static com.google.errorprone.BugPattern.LinkType.CUSTOM;
import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.matchers.Description;
import com.sun.source.util.TreePath;
import io.github.lockjaw.checks.support.FixOutcome;
import io.github.lockjaw.checks.support.ModelChecker;
import io.github.lockjaw.common.LockjawDocs;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;

/**
 * Code on a request path that builds, per call, an object that is costly to build and meant to be
 * shared ({@code new ObjectMapper()}, {@code new Gson()}, {@code JAXBContext.newInstance}, a JAXP
 * factory's {@code newInstance()}), or that looks up, per call, what a registry or class loader
 * hands out under a lock (a logger, {@code Class.forName}). JAXB contexts built per request cost
 * 17× in weixin-java-tools and 30 s against 2 s in gemini ocs; openfga's java-sdk copied its
 * ObjectMapper on every request. The query is {@link PerRequestHeavyweightQuery}, shared with the
 * bytecode engine; the fix moves a thread-safe object to a {@code private static final} field.
 */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "An object that is costly to build and meant to be shared, or a look-up under a shared"
            + " lock, made again on every request",
    severity = WARNING,
    linkType = CUSTOM,
    link = LockjawDocs.BASE + "PerRequestHeavyweightObject.md",
    tags = BugPattern.StandardTags.PERFORMANCE)
public final class PerRequestHeavyweightObject extends ModelChecker {
  private static final ModelQuery QUERY = new PerRequestHeavyweightQuery();

  @Override
  protected ModelQuery query() {
    return QUERY;
  }

  @Override
  protected Description describe(ModelFinding finding, TreePath anchor, VisitorState state) {
    String message = finding.message();
    FixOutcome fix = null;
    if (finding.detail() instanceof PerRequestHeavyweightQuery.Creation creation) {
      fix = HoistSharedInstanceFix.build(anchor, creation, state);
      if (!fix.hasFix() && !message.contains("(No automatic fix")) {
        message += fix.note();
      }
    }
    Description.Builder description = buildDescription(anchor.getLeaf()).setMessage(message);
    if (fix != null) {
      fix.fix().ifPresent(description::addFix);
    }
    return description.build();
  }
}
