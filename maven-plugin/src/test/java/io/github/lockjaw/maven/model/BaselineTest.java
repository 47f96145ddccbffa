package io.github.lockjaw.maven.model;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BaselineTest {
  @TempDir Path dir;

  @Test
  void aMissingFileIsAnEmptyBaseline() throws Exception {
    assertEquals(0, Baseline.read(dir.resolve("lockjaw-baseline.json")).size());
  }

  @Test
  void writtenEntriesAreReadBackByFingerprint() throws Exception {
    Path file = dir.resolve("sub/lockjaw-baseline.json");
    Baseline.write(
        file,
        List.of(
            new Baseline.Entry("b2", "SharedMonitorDao", "src/Dao.java", "Dao", "load(String)", 12),
            new Baseline.Entry(
                "a1", "ClassMonitorCache", "src/Info.java", "Info", "of(Class)", 40)));
    Baseline baseline = Baseline.read(file);
    assertTrue(baseline.contains("a1"));
    assertTrue(baseline.contains("b2"));
    assertFalse(baseline.contains("c3"));
    String text = Files.readString(file, UTF_8);
    assertTrue(
        text.indexOf("src/Dao.java") < text.indexOf("src/Info.java"), "entries are sorted by file");
  }

  @Test
  void malformedJsonGetsAMessageThatSaysWhatToDo() throws Exception {
    Path file = dir.resolve("lockjaw-baseline.json");
    Files.writeString(file, "{ \"tool\": \"lockjaw\", \"entries\": [ ", UTF_8);
    Baseline.BaselineException e =
        assertThrows(Baseline.BaselineException.class, () -> Baseline.read(file));
    assertTrue(e.getMessage().contains("is not a valid baseline file"), e.getMessage());
    assertTrue(e.getMessage().contains("mvn lockjaw:baseline"), e.getMessage());
  }

  @Test
  void anotherToolsFileOrAnEntryWithoutFingerprintIsRejected() throws Exception {
    Path other = dir.resolve("other.json");
    Files.writeString(other, "{\"tool\":\"pmd\",\"entries\":[]}", UTF_8);
    assertThrows(Baseline.BaselineException.class, () -> Baseline.read(other));
    Path noFingerprint = dir.resolve("nofp.json");
    Files.writeString(
        noFingerprint, "{\"tool\":\"lockjaw\",\"entries\":[{\"check\":\"X\"}]}", UTF_8);
    Baseline.BaselineException e =
        assertThrows(Baseline.BaselineException.class, () -> Baseline.read(noFingerprint));
    assertTrue(e.getMessage().contains("fingerprint"), e.getMessage());
  }
}
