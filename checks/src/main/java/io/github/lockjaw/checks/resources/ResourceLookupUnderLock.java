package io.github.lockjaw.checks.resources;

import static com.google.errorprone.BugPattern.LinkType.CUSTOM;
import static com.google.errorprone.BugPattern.SeverityLevel.WARNING;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.bugpatterns.BugChecker;
import io.github.lockjaw.checks.support.ModelChecker;
import io.github.lockjaw.common.LockjawDocs;
import io.github.lockjaw.model.query.ModelQuery;

/**
 * A monitor every request shares, held while the code searches the class path, probes or scans jars
 * and zips, asks the servlet container for a resource or walks a directory tree: each lookup waits
 * for all the ones before it. Tomcat 7's {@code WebappClassLoader} probed every {@code WEB-INF/lib}
 * jar under {@code synchronized (jarFiles)} on each class and resource lookup; WebJars served each
 * static asset by scanning the class path under a JVM-wide lock. The query is {@link
 * ResourceLookupQuery}, shared with the bytecode engine.
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
public final class ResourceLookupUnderLock extends ModelChecker {
  private static final ModelQuery QUERY = new ResourceLookupQuery();

  @Override
  protected ModelQuery query() {
    return QUERY;
  }
}
