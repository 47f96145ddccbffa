package io.github.lockjaw.checks.dao;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

/**
 * Issue 17, item 4: the SharedMonitorDao fix on records, enums, interfaces, anonymous and local
 * classes neither crashes javac nor writes code that does not compile.
 */
class DaoFixShapesTest {

  @Test
  void aRecordGetsTheFix() {
    String[] output = {
      "import java.sql.Connection;",
      "import java.sql.SQLException;",
      "import javax.sql.DataSource;",
      "record Titles(DataSource pool) {",
      "  private static final Object LOCK = new Object();",
      "  String title(long id) throws SQLException {",
      "    try (Connection c = pool.getConnection()) {",
      "      return c.getCatalog() + id;",
      "    }",
      "  }",
      "}"
    };
    BugCheckerRefactoringTestHelper.newInstance(SharedMonitorDao.class, getClass())
        .addInputLines(
            "Titles.java",
            "import java.sql.Connection;",
            "import java.sql.SQLException;",
            "import javax.sql.DataSource;",
            "record Titles(DataSource pool) {",
            "  private static final Object LOCK = new Object();",
            "  String title(long id) throws SQLException {",
            "    synchronized (LOCK) {",
            "      try (Connection c = pool.getConnection()) {",
            "        return c.getCatalog() + id;",
            "      }",
            "    }",
            "  }",
            "}")
        .addOutputLines("Titles.java", output)
        .doTest(BugCheckerRefactoringTestHelper.TestMode.TEXT_MATCH);
  }

  @Test
  void enumsInterfacesAnonymousAndLocalClassesDoNotCrash() {
    CompilationTestHelper.newInstance(SharedMonitorDao.class, getClass())
        .addSourceLines(
            "Daos.java",
            "import java.sql.Connection;",
            "import java.sql.SQLException;",
            "import java.util.function.Supplier;",
            "import javax.sql.DataSource;",
            "interface Daos {",
            "  Object LOCK = new Object();",
            "  static String catalog(DataSource pool) throws SQLException {",
            "    // BUG: Diagnostic contains: SharedMonitorDao",
            "    synchronized (LOCK) {",
            "      try (Connection c = pool.getConnection()) {",
            "        return c.getCatalog();",
            "      }",
            "    }",
            "  }",
            "  enum Store {",
            "    MAIN;",
            "    private static final Object MONITOR = new Object();",
            "    String catalog(DataSource pool) throws SQLException {",
            "      // BUG: Diagnostic contains: SharedMonitorDao",
            "      synchronized (MONITOR) {",
            "        try (Connection c = pool.getConnection()) {",
            "          return c.getCatalog();",
            "        }",
            "      }",
            "    }",
            "  }",
            "  static Supplier<String> later(DataSource pool) {",
            "    class Local {",
            "      private final Object lock = new Object();",
            "      String catalog() throws SQLException {",
            "        // BUG: Diagnostic contains: SharedMonitorDao",
            "        synchronized (LOCK) {",
            "          try (Connection c = pool.getConnection()) {",
            "            return c.getCatalog();",
            "          }",
            "        }",
            "      }",
            "    }",
            "    return new Supplier<String>() {",
            "      public String get() {",
            "        try {",
            "          return new Local().catalog();",
            "        } catch (SQLException e) {",
            "          return null;",
            "        }",
            "      }",
            "    };",
            "  }",
            "}")
        .doTest();
  }
}
