package io.github.lockjaw.engine.report.html;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.opentest4j.TestAbortedException;

/**
 * A real headless Chromium (Debian's {@code chromium} package) for the tests of lockjaw's HTML
 * reports: loads a page from a file, gives back the DOM it built ({@code --dump-dom}) and a
 * screenshot, and checks that the chart's bars match the table beside them, in the DOM and in the
 * pixels. Each run gets a fresh profile directory and no network services. Shared by the engine's
 * tests, the CLI's integration test and the invoker tests' verify scripts (this module's test jar).
 */
public final class HeadlessChromium {
  /** Set ({@code -Dlockjaw.requireBrowser}) to fail, not skip, the browser checks without it. */
  public static final String REQUIRE_PROPERTY = "lockjaw.requireBrowser";

  public static final String MISSING =
      "no Chromium is installed, so the HTML report was not checked in a browser: install it (Debian:"
          + " apt-get install -y chromium); -Dlockjaw.requireBrowser makes this a failure.";

  private static final List<String> NAMES =
      List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable");

  /** The bar colours of {@link HtmlPage#barChart}: a finding (red), no finding (blue). */
  private static final int[][] BAR_COLOURS = {{0xcf, 0x22, 0x2e}, {0x09, 0x69, 0xda}};

  private static final Pattern RECT = Pattern.compile("<rect\\b([^>]*)>");
  private static final Pattern ATTRIBUTE = Pattern.compile("([\\w-]+)=\"([^\"]*)\"");

  private final Path executable;

  private HeadlessChromium(Path executable) {
    this.executable = executable;
  }

  /** One bar of a chart as the browser's DOM has it. */
  public record ChartBar(String label, double value, double width) {}

  /** The Chromium on the PATH (or a usual place), if any. */
  public static Optional<HeadlessChromium> find() {
    String path = System.getenv().getOrDefault("PATH", "");
    List<Path> candidates = new ArrayList<>();
    for (String dir : path.split(File.pathSeparator)) {
      for (String name : NAMES) {
        candidates.add(Path.of(dir, name));
      }
    }
    candidates.add(Path.of("/usr/bin/chromium"));
    candidates.add(Path.of("/usr/lib/chromium/chromium"));
    for (Path candidate : candidates) {
      if (Files.isExecutable(candidate)) {
        return Optional.of(new HeadlessChromium(candidate));
      }
    }
    return Optional.empty();
  }

  /**
   * The browser for a test: skips the test (with {@link #MISSING}) when there is none, fails it
   * when {@code -Dlockjaw.requireBrowser} is set.
   */
  public static HeadlessChromium forTest() {
    Optional<HeadlessChromium> found = find();
    if (found.isPresent()) {
      return found.get();
    }
    if (System.getProperty(REQUIRE_PROPERTY) != null) {
      throw new AssertionError(MISSING);
    }
    throw new TestAbortedException(MISSING);
  }

  /** The DOM Chromium built from the page, serialised. */
  public String dumpDom(Path html) throws IOException, InterruptedException {
    return run(html, List.of("--dump-dom"));
  }

  /** A screenshot of the page's top {@code width} x {@code height} pixels. */
  public BufferedImage screenshot(Path html, Path png, int width, int height)
      throws IOException, InterruptedException {
    Files.deleteIfExists(png);
    run(
        html,
        List.of("--screenshot=" + png.toAbsolutePath(), "--window-size=" + width + "," + height));
    if (!Files.isRegularFile(png)) {
      throw new AssertionError("Chromium wrote no screenshot of " + html);
    }
    BufferedImage image = ImageIO.read(png.toFile());
    if (image == null) {
      throw new AssertionError("the screenshot " + png + " is not a PNG");
    }
    return image;
  }

  private String run(Path html, List<String> action) throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory("lockjaw-chromium-");
    Path out = Files.createTempFile("lockjaw-chromium-", ".out");
    Path err = Files.createTempFile("lockjaw-chromium-", ".err");
    try {
      List<String> command =
          new ArrayList<>(
              List.of(
                  executable.toString(),
                  "--headless",
                  "--no-sandbox",
                  "--disable-gpu",
                  "--disable-background-networking",
                  "--disable-component-update",
                  "--disable-sync",
                  "--no-first-run",
                  "--hide-scrollbars",
                  "--user-data-dir=" + profile));
      command.addAll(action);
      command.add(html.toAbsolutePath().toUri().toString());
      Process process =
          new ProcessBuilder(command)
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      if (!process.waitFor(120, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        throw new AssertionError("Chromium did not finish within 2 minutes on " + html);
      }
      if (process.exitValue() != 0) {
        throw new AssertionError(
            "Chromium failed (exit " + process.exitValue() + "): " + Files.readString(err, UTF_8));
      }
      return Files.readString(out, UTF_8);
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
      deleteTree(profile);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** The chart bars ({@code <rect class="bar">}) of a DOM, in document order. */
  public static List<ChartBar> bars(String dom) {
    List<ChartBar> bars = new ArrayList<>();
    Matcher rect = RECT.matcher(dom);
    while (rect.find()) {
      String label = null;
      double value = Double.NaN;
      double width = Double.NaN;
      boolean bar = false;
      Matcher attribute = ATTRIBUTE.matcher(rect.group(1));
      while (attribute.find()) {
        String v = unescape(attribute.group(2));
        switch (attribute.group(1)) {
          case "class" -> bar = v.equals("bar");
          case "data-label" -> label = v;
          case "data-value" -> value = Double.parseDouble(v);
          case "width" -> width = Double.parseDouble(v);
          default -> {}
        }
      }
      if (bar) {
        bars.add(new ChartBar(label, value, width));
      }
    }
    return bars;
  }

  /** The rows of the first table of a DOM: the header row first, each cell's text. */
  public static List<List<String>> firstTable(String dom) {
    int start = dom.indexOf("<table");
    int end = dom.indexOf("</table>", start);
    if (start < 0 || end < 0) {
      return List.of();
    }
    String table = dom.substring(start, end);
    List<List<String>> rows = new ArrayList<>();
    Matcher row = Pattern.compile("(?s)<tr>(.*?)</tr>").matcher(table);
    while (row.find()) {
      List<String> cells = new ArrayList<>();
      Matcher cell = Pattern.compile("(?s)<t[hd][^>]*>(.*?)</t[hd]>").matcher(row.group(1));
      while (cell.find()) {
        cells.add(unescape(cell.group(1).replaceAll("<[^>]+>", "")).strip());
      }
      rows.add(cells);
    }
    return rows;
  }

  /**
   * Checks a rendered contention page: the DOM has one bar per table row, each bar's label names
   * its row's rank and site and its value is the row's figure in column {@code figureColumn}; the
   * bars' widths are in proportion to their values; and in the screenshot the bars drawn (in the
   * chart's colours) have the same widths relative to each other. Returns the problems found, none
   * when all holds.
   */
  public List<String> checkChartAgainstTable(Path html, String figureColumn, Path screenshot)
      throws IOException, InterruptedException {
    List<String> problems = new ArrayList<>();
    String dom = dumpDom(html);
    if (!dom.contains("<svg")) {
      problems.add("the page has no chart");
      return problems;
    }
    List<ChartBar> bars = bars(dom);
    List<List<String>> table = firstTable(dom);
    if (table.size() < 2) {
      problems.add("the page has no table of sites");
      return problems;
    }
    List<String> header = table.get(0);
    int figure = header.indexOf(figureColumn);
    int site = header.indexOf("site");
    if (figure < 0 || site < 0) {
      problems.add("the table has no '" + figureColumn + "' or 'site' column: " + header);
      return problems;
    }
    List<List<String>> rows = table.subList(1, table.size());
    if (bars.size() != rows.size()) {
      problems.add(bars.size() + " bars for " + rows.size() + " table rows");
    }
    double maxValue = bars.stream().mapToDouble(ChartBar::value).max().orElse(0);
    double maxWidth = bars.stream().mapToDouble(ChartBar::width).max().orElse(0);
    for (int i = 0; i < Math.min(bars.size(), rows.size()); i++) {
      ChartBar bar = bars.get(i);
      List<String> row = rows.get(i);
      String expectedLabel = row.get(0) + ". " + row.get(site);
      if (!expectedLabel.equals(bar.label())) {
        problems.add(
            "bar " + (i + 1) + " is '" + bar.label() + "', its row '" + expectedLabel + "'");
      }
      double tableValue = number(row.get(figure));
      if (Math.abs(tableValue - bar.value()) > 0.05 + tableValue * 0.001) {
        problems.add(
            "bar '" + bar.label() + "' is " + bar.value() + ", its row says " + row.get(figure));
      }
      if (maxValue > 0 && maxWidth > 0) {
        double expected = bar.value() / maxValue * maxWidth;
        if (Math.abs(expected - bar.width()) > 0.5) {
          problems.add("bar '" + bar.label() + "' is " + bar.width() + " wide, not " + expected);
        }
      }
    }
    BufferedImage image = screenshot(html, screenshot, 1280, 1200);
    List<int[]> drawn = drawnBars(image);
    if (drawn.isEmpty()) {
      problems.add("the screenshot shows no bar in the chart's colours");
      return problems;
    }
    // the first bar is the widest (the table is ranked); the others follow one row apart
    int top = drawn.get(0)[0];
    int widest = drawn.get(0)[1];
    double widestDom = bars.isEmpty() ? 0 : bars.get(0).width();
    boolean[] seen = new boolean[bars.size()];
    for (int[] band : drawn) {
      int index = (int) Math.round((band[0] - top) / (double) HtmlPage.BAR_ROW_HEIGHT);
      if (index < 0 || index >= bars.size()) {
        problems.add("a bar is drawn where the chart has none (" + band[0] + " px down)");
        continue;
      }
      seen[index] = true;
      double expected = bars.get(index).width() / widestDom * widest;
      if (Math.abs(expected - band[1]) > 2 + widest * 0.01) {
        problems.add(
            "bar '"
                + bars.get(index).label()
                + "' is drawn "
                + band[1]
                + " px wide; in proportion to the widest it should be "
                + Math.round(expected));
      }
    }
    for (int i = 0; i < bars.size(); i++) {
      if (!seen[i] && bars.get(i).width() / widestDom * widest >= 3) {
        problems.add("bar '" + bars.get(i).label() + "' is not drawn");
      }
    }
    return problems;
  }

  /**
   * The bars drawn in the chart's colours, top to bottom, each as {@code {top y, width}} in pixels:
   * each band of rows holding a bar colour is one bar.
   */
  public static List<int[]> drawnBars(BufferedImage image) {
    List<int[]> bars = new ArrayList<>();
    int band = 0;
    int start = -1;
    for (int y = 0; y < image.getHeight(); y++) {
      int min = Integer.MAX_VALUE;
      int max = -1;
      for (int x = 0; x < image.getWidth(); x++) {
        if (isBarColour(image.getRGB(x, y))) {
          min = Math.min(min, x);
          max = Math.max(max, x);
        }
      }
      if (max >= 0) {
        if (start < 0) {
          start = y;
          band = 0;
        }
        band = Math.max(band, max - min + 1);
      } else if (start >= 0) {
        bars.add(new int[] {start, band});
        start = -1;
      }
    }
    if (start >= 0) {
      bars.add(new int[] {start, band});
    }
    return bars;
  }

  private static boolean isBarColour(int rgb) {
    int r = (rgb >> 16) & 0xff;
    int g = (rgb >> 8) & 0xff;
    int b = rgb & 0xff;
    for (int[] colour : BAR_COLOURS) {
      if (Math.abs(r - colour[0]) <= 6
          && Math.abs(g - colour[1]) <= 6
          && Math.abs(b - colour[2]) <= 6) {
        return true;
      }
    }
    return false;
  }

  /** {@code 36,325.1 ms} is 36325.1, {@code 7} is 7. */
  static double number(String text) {
    Matcher m = Pattern.compile("-?[\\d,]+(?:\\.\\d+)?").matcher(text);
    if (!m.find()) {
      return Double.NaN;
    }
    return Double.parseDouble(m.group().replace(",", ""));
  }

  private static String unescape(String text) {
    return text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&");
  }
}
