package io.github.lockjaw.maven.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Properties;
import org.apache.maven.execution.DefaultMavenExecutionRequest;
import org.apache.maven.execution.MavenExecutionRequest;
import org.apache.maven.model.Model;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.project.MavenProject;
import org.codehaus.plexus.util.xml.Xpp3Dom;
import org.codehaus.plexus.util.xml.Xpp3DomBuilder;
import org.junit.jupiter.api.Test;

/** Items 6, 14, 17 and 18 of issue 17: the release and arguments the analysis compiles with. */
class CompilerSettingsTest {
  private static final int JDK = 25;

  @Test
  void theCompilerPluginsReleaseWinsOverAParentsProperty() throws Exception {
    // <parent>org.apache:apache</parent>: its JDK 9+ profile sets maven.compiler.release=8
    MavenProject project =
        project(
            "<configuration><release>17</release></configuration>", "maven.compiler.release", "8");
    assertEquals(
        List.of("--release", "17"), CompilerSettings.of(project, null, null, JDK).javacOptions());
  }

  @Test
  void theDefaultCompileExecutionOverridesThePluginLevel() throws Exception {
    MavenProject project = project("<configuration><release>11</release></configuration>");
    PluginExecution execution = new PluginExecution();
    execution.setId("default-compile");
    execution.setConfiguration(dom("<configuration><release>21</release></configuration>"));
    project.getPlugin("org.apache.maven.plugins:maven-compiler-plugin").addExecution(execution);
    assertEquals(
        List.of("--release", "21"), CompilerSettings.of(project, null, null, JDK).javacOptions());
  }

  @Test
  void aSourceLevelIsPassedAsSourceAndTargetAsTheCompilerPluginDoes() throws Exception {
    // issue 24: source/target do not restrict the class library, so code that uses a newer API
    // behind a runtime check compiles with mvn compile; --release would reject it
    MavenProject project =
        project("<configuration><source>1.8</source><target>1.8</target></configuration>");
    CompilerSettings settings = CompilerSettings.of(project, null, null, JDK);
    assertEquals(List.of("-source", "8", "-target", "8"), settings.javacOptions());
    assertEquals("the compiler plugin's source/target", settings.origin());
    MavenProject commons = project(null, "maven.compile.source", "11");
    assertEquals(
        List.of("-source", "11", "-target", "11"),
        CompilerSettings.of(commons, null, null, JDK).javacOptions());
    MavenProject newerTarget =
        project("<configuration><source>11</source><target>17</target></configuration>");
    assertEquals(
        List.of("-source", "11", "-target", "17"),
        CompilerSettings.of(newerTarget, null, null, JDK).javacOptions());
  }

  @Test
  void lockjawReleaseReplacesSourceAndTargetWithRelease() throws Exception {
    MavenProject project =
        project("<configuration><source>11</source><target>11</target></configuration>");
    CompilerSettings settings = CompilerSettings.of(project, null, "11", JDK);
    assertEquals(List.of("--release", "11"), settings.javacOptions());
    assertEquals("lockjaw.release", settings.origin());
  }

  @Test
  void codeOlderThanJava8IsAnalysedAs8AndTheUserIsTold() throws Exception {
    CompilerSettings settings =
        CompilerSettings.of(project(null, "maven.compiler.source", "1.5"), null, null, JDK);
    assertEquals(List.of("-source", "8", "-target", "8"), settings.javacOptions());
    assertEquals(1, settings.notes().size());
    assertTrue(
        settings.notes().get(0).contains("analyses these sources as Java 8"),
        settings.notes().get(0));
  }

  @Test
  void aUserPropertyOverridesTheProjectProperty() throws Exception {
    MavenProject project = project(null, "maven.compiler.release", "11");
    DefaultMavenExecutionRequest request = new DefaultMavenExecutionRequest();
    Properties user = new Properties();
    user.setProperty("maven.compiler.release", "17");
    request.setUserProperties(user);
    @SuppressWarnings("deprecation")
    var session =
        new org.apache.maven.execution.MavenSession(
            null, (MavenExecutionRequest) request, null, List.of(project));
    assertEquals(
        List.of("--release", "17"),
        CompilerSettings.of(project, session, null, JDK).javacOptions());
  }

  @Test
  void lockjawReleaseThatIsNoNumberOrTooNewIsExplained() {
    MojoFailureException abc =
        assertThrows(
            MojoFailureException.class, () -> CompilerSettings.of(project(null), null, "abc", JDK));
    assertTrue(abc.getMessage().contains("lockjaw.release 'abc'"), abc.getMessage());
    assertTrue(abc.getMessage().contains("a number such as 8, 11, 17 or 21"), abc.getMessage());
    MojoFailureException tooNew =
        assertThrows(
            MojoFailureException.class, () -> CompilerSettings.of(project(null), null, "99", JDK));
    assertTrue(tooNew.getMessage().contains("release 99 (lockjaw.release)"), tooNew.getMessage());
    assertTrue(tooNew.getMessage().contains("releases 8 to 25"), tooNew.getMessage());
  }

  @Test
  void previewAndModuleArgumentsArePassedThroughLintAndPluginsAreNot() throws Exception {
    MavenProject project =
        project(
            "<configuration><release>25</release><compilerArgs><arg>--enable-preview</arg><arg>-Xlint:all</arg>"
                + "<arg>-Werror</arg><arg>--add-modules</arg><arg>jdk.incubator.vector</arg>"
                + "<arg>-Xplugin:ErrorProne</arg></compilerArgs></configuration>");
    assertEquals(
        List.of("--release", "25", "--enable-preview", "--add-modules", "jdk.incubator.vector"),
        CompilerSettings.of(project, null, null, JDK).javacOptions());
    MavenProject flag =
        project(
            "<configuration><release>25</release><enablePreview>true</enablePreview></configuration>");
    assertEquals(
        List.of("--release", "25", "--enable-preview"),
        CompilerSettings.of(flag, null, null, JDK).javacOptions());
  }

  @Test
  void systemModuleExportsKeepSourceAndTarget() throws Exception {
    MavenProject project =
        project(
            "<configuration><source>17</source><target>17</target><compilerArgs>"
                + "<arg>--add-exports=java.base/sun.nio.ch=ALL-UNNAMED</arg></compilerArgs></configuration>");
    assertEquals(
        List.of("-source", "17", "-target", "17", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED"),
        CompilerSettings.of(project, null, null, JDK).javacOptions());
  }

  @Test
  void nothingConfiguredMeansNoReleaseOption() throws Exception {
    assertEquals(List.of(), CompilerSettings.of(project(null), null, null, JDK).javacOptions());
  }

  private static MavenProject project(String compilerConfiguration, String... properties)
      throws Exception {
    Model model = new Model();
    model.setArtifactId("m");
    for (int i = 0; i < properties.length; i += 2) {
      model.getProperties().setProperty(properties[i], properties[i + 1]);
    }
    MavenProject project = new MavenProject(model);
    if (compilerConfiguration != null) {
      Plugin plugin = new Plugin();
      plugin.setGroupId("org.apache.maven.plugins");
      plugin.setArtifactId("maven-compiler-plugin");
      plugin.setConfiguration(dom(compilerConfiguration));
      model.setBuild(new org.apache.maven.model.Build());
      model.getBuild().addPlugin(plugin);
    }
    return project;
  }

  private static Xpp3Dom dom(String xml) throws Exception {
    return Xpp3DomBuilder.build(new java.io.StringReader(xml));
  }
}
