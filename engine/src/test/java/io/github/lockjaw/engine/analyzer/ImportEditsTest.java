package io.github.lockjaw.engine.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.util.JavacTask;
import io.github.lockjaw.engine.finding.Edit;
import io.github.lockjaw.engine.finding.SourceEdits;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.tools.JavaCompiler;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/** The import block after a fix: the one line the fix needs, where the file's order puts it. */
class ImportEditsTest {
  private static String apply(String source, List<String> add, List<String> remove)
      throws Exception {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    SimpleJavaFileObject file =
        new SimpleJavaFileObject(URI.create("string:///A.java"), SimpleJavaFileObject.Kind.SOURCE) {
          @Override
          public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return source;
          }
        };
    JavacTask task = (JavacTask) javac.getTask(null, null, null, List.of(), null, List.of(file));
    CompilationUnitTree unit = task.parse().iterator().next();
    Optional<Edit> edit = ImportEdits.edit(unit, source, add, remove);
    return edit.isEmpty()
        ? source
        : SourceEdits.apply(source, new ArrayList<>(List.of(edit.get())));
  }

  @Test
  void aFileWithoutImportsGetsItsFirstAfterThePackageLine() throws Exception {
    assertEquals(
        "package shop;\n\nimport java.util.concurrent.ConcurrentHashMap;\n\nclass A {}\n",
        apply(
            "package shop;\n\nclass A {}\n",
            List.of("import java.util.concurrent.ConcurrentHashMap"),
            List.of()));
  }

  @Test
  void theFirstStaticImportGoesAboveTheOthersWithABlankLine() throws Exception {
    assertEquals(
        "package shop;\n\nimport static java.util.Objects.requireNonNull;\n\nimport java.util.List;\n"
            + "import java.util.Map;\n\nclass A {}\n",
        apply(
            "package shop;\n\nimport java.util.List;\nimport java.util.Map;\n\nclass A {}\n",
            List.of("import static java.util.Objects.requireNonNull"),
            List.of()));
  }

  @Test
  void anOnDemandImportAlreadyBringsTheTypeIn() throws Exception {
    String source = "package shop;\n\nimport java.util.concurrent.*;\n\nclass A {}\n";
    assertEquals(
        source, apply(source, List.of("import java.util.concurrent.ConcurrentHashMap"), List.of()));
  }

  @Test
  void aRemovedImportLosesItsLineAndTheCrlfStays() throws Exception {
    String fixed =
        apply(
            "package shop;\r\n\r\nimport java.util.HashMap;\r\nimport java.util.Map;\r\n\r\nclass A {}\r\n",
            List.of("import java.util.concurrent.ConcurrentHashMap"),
            List.of("import java.util.HashMap"));
    assertEquals(
        "package shop;\r\n\r\nimport java.util.Map;\r\nimport java.util.concurrent.ConcurrentHashMap;\r\n"
            + "\r\nclass A {}\r\n",
        fixed);
    assertTrue(!fixed.replace("\r\n", "").contains("\n"), "a bare LF in a CRLF file");
  }
}
