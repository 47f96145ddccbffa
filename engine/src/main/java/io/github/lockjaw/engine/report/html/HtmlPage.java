package io.github.lockjaw.engine.report.html;

import java.util.List;
import java.util.Locale;

/**
 * A self-contained HTML page: inline style, no script, nothing fetched from the network, so a
 * report opens from a CI artifact or a mail attachment as it is. Every report lockjaw writes as
 * HTML (the findings of {@code check} and {@code audit}, the {@code mvn site} page, the contention
 * report) is built with this one renderer. Text passed in is escaped; only {@link #raw(String)}
 * inserts markup as it is.
 */
public final class HtmlPage {
  private static final String STYLE =
      """
      body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;\
      max-width:72em;padding:0 1em;color:#1f2328}
      h1{font-size:1.6em}h2{font-size:1.3em;border-bottom:1px solid #d0d7de;padding-bottom:.2em}
      h3{font-size:1.1em}table{border-collapse:collapse;margin:.6em 0}
      th,td{border:1px solid #d0d7de;padding:.3em .6em;text-align:left;vertical-align:top}
      th{background:#f6f8fa}td.num,th.num{text-align:right}
      pre{background:#f6f8fa;padding:.6em;overflow:auto;font-size:12.5px}
      pre .add{color:#116329;background:#e6ffec}pre .del{color:#82071e;background:#ffebe9}
      pre .hunk{color:#6e7781}.note{color:#57606a}code{font-size:12.5px}
      svg text{font:12px system-ui,sans-serif}
      """;

  /** The style of a {@link #fragment()}: only what the report needs, inside its own div. */
  private static final String FRAGMENT_STYLE =
      """
      .lockjaw pre{background:#f6f8fa;padding:.6em;overflow:auto;font-size:12.5px}
      .lockjaw pre .add{color:#116329;background:#e6ffec}
      .lockjaw pre .del{color:#82071e;background:#ffebe9}
      .lockjaw pre .hunk{color:#6e7781}.lockjaw .note{color:#57606a}
      .lockjaw td.num,.lockjaw th.num{text-align:right}
      """;

  private final StringBuilder body = new StringBuilder();
  private final String title;

  public HtmlPage(String title) {
    this.title = title;
    heading(1, title);
  }

  /** Escapes text for element content and attribute values. */
  public static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /** A heading, {@code level} 1 to 6, with an optional anchor id (empty for none). */
  public HtmlPage heading(int level, String text, String id) {
    int h = Math.max(1, Math.min(6, level));
    body.append("<h").append(h);
    if (!id.isEmpty()) {
      body.append(" id=\"").append(escape(id)).append('"');
    }
    body.append('>').append(escape(text)).append("</h").append(h).append(">\n");
    return this;
  }

  public HtmlPage heading(int level, String text) {
    return heading(level, text, "");
  }

  public HtmlPage paragraph(String text) {
    body.append("<p>").append(escape(text)).append("</p>\n");
    return this;
  }

  /** A paragraph in the muted style of notes. */
  public HtmlPage note(String text) {
    body.append("<p class=\"note\">").append(escape(text)).append("</p>\n");
    return this;
  }

  /** Markup inserted as it is: the caller escapes what it puts in. */
  public HtmlPage raw(String html) {
    body.append(html);
    return this;
  }

  /** A preformatted block, e.g. frames of a stack. */
  public HtmlPage code(String text) {
    body.append("<pre>").append(escape(text)).append("</pre>\n");
    return this;
  }

  /** A unified diff, its added, removed and hunk lines coloured. */
  public HtmlPage diff(String unifiedDiff) {
    body.append("<pre class=\"diff\">");
    for (String line : unifiedDiff.split("\n", -1)) {
      String css =
          line.startsWith("+++") || line.startsWith("---")
              ? "hunk"
              : line.startsWith("+")
                  ? "add"
                  : line.startsWith("-") ? "del" : line.startsWith("@@") ? "hunk" : "";
      if (css.isEmpty()) {
        body.append(escape(line));
      } else {
        body.append("<span class=\"")
            .append(css)
            .append("\">")
            .append(escape(line))
            .append("</span>");
      }
      body.append('\n');
    }
    body.append("</pre>\n");
    return this;
  }

  /** A table; a cell is text, or markup when it is a {@link Cell} made with {@link Cell#html}. */
  public HtmlPage table(List<String> headers, List<List<Cell>> rows) {
    body.append("<table>\n<thead><tr>");
    for (String header : headers) {
      body.append("<th>").append(escape(header)).append("</th>");
    }
    body.append("</tr></thead>\n<tbody>\n");
    for (List<Cell> row : rows) {
      body.append("<tr>");
      for (Cell cell : row) {
        body.append(cell.numeric() ? "<td class=\"num\">" : "<td>")
            .append(cell.html())
            .append("</td>");
      }
      body.append("</tr>\n");
    }
    body.append("</tbody>\n</table>\n");
    return this;
  }

  /**
   * A horizontal bar chart as inline SVG, one bar per entry, scaled to the largest value. Each bar
   * carries {@code data-label} and {@code data-value} attributes, so a test (or a reader's tools)
   * can check the chart against the table beside it.
   */
  public HtmlPage barChart(String caption, List<Bar> bars, String unit) {
    int rowHeight = 22;
    int labelWidth = 360;
    int barWidth = 420;
    int height = rowHeight * bars.size() + 8;
    double max = bars.stream().mapToDouble(Bar::value).max().orElse(0);
    body.append("<figure>\n<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"")
        .append(labelWidth + barWidth + 120)
        .append("\" height=\"")
        .append(height)
        .append("\" aria-label=\"")
        .append(escape(caption))
        .append("\">\n");
    for (int i = 0; i < bars.size(); i++) {
      Bar bar = bars.get(i);
      int y = i * rowHeight + 4;
      double width = max <= 0 ? 0 : bar.value() / max * barWidth;
      body.append("<text x=\"0\" y=\"")
          .append(y + 15)
          .append("\">")
          .append(escape(shorten(bar.label(), 52)))
          .append("</text>")
          .append("<rect class=\"bar\" x=\"")
          .append(labelWidth)
          .append("\" y=\"")
          .append(y)
          .append("\" height=\"")
          .append(rowHeight - 6)
          .append("\" width=\"")
          .append(String.format(Locale.ROOT, "%.1f", width))
          .append("\" fill=\"")
          .append(bar.highlighted() ? "#cf222e" : "#0969da")
          .append("\" data-label=\"")
          .append(escape(bar.label()))
          .append("\" data-value=\"")
          .append(String.format(Locale.ROOT, "%.3f", bar.value()))
          .append("\"><title>")
          .append(escape(bar.label() + ": " + format(bar.value()) + " " + unit))
          .append("</title></rect>")
          .append("<text x=\"")
          .append(String.format(Locale.ROOT, "%.1f", labelWidth + width + 6))
          .append("\" y=\"")
          .append(y + 15)
          .append("\">")
          .append(escape(format(bar.value()) + " " + unit))
          .append("</text>\n");
    }
    body.append("</svg>\n<figcaption class=\"note\">")
        .append(escape(caption))
        .append("</figcaption>\n</figure>\n");
    return this;
  }

  /** A link; {@code href} and {@code text} are escaped. */
  public static String link(String href, String text) {
    return "<a href=\"" + escape(href) + "\">" + escape(text) + "</a>";
  }

  /** A bulleted list of text items. */
  public HtmlPage list(List<String> items) {
    return listHtml(items.stream().map(HtmlPage::escape).toList());
  }

  /** A bulleted list whose items are markup: the caller escapes what it puts in. */
  public HtmlPage listHtml(List<String> items) {
    body.append("<ul>\n");
    for (String item : items) {
      body.append("<li>").append(item).append("</li>\n");
    }
    body.append("</ul>\n");
    return this;
  }

  /**
   * The page without the document around it, for a page of another site ({@code mvn site}): the
   * content in a {@code div} of class {@code lockjaw}, with its title as an {@code h2}-level
   * section heading left to the site, and a style scoped to that {@code div}.
   */
  public String fragment() {
    return "<div class=\"lockjaw\">\n<style>\n"
        + FRAGMENT_STYLE
        + "</style>\n"
        + body.substring(body.indexOf("\n") + 1) // the site shows the title itself
        + "</div>\n";
  }

  /** The whole document. */
  public String render() {
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>"
        + escape(title)
        + "</title>\n<style>\n"
        + STYLE
        + "</style>\n</head>\n<body>\n"
        + body
        + "</body>\n</html>\n";
  }

  private static String shorten(String text, int max) {
    return text.length() <= max ? text : "…" + text.substring(text.length() - max + 1);
  }

  private static String format(double value) {
    return value == Math.rint(value)
        ? String.format(Locale.ROOT, "%.0f", value)
        : String.format(Locale.ROOT, "%.1f", value);
  }

  /** One table cell: its markup, and whether it holds a number (right-aligned). */
  public record Cell(String html, boolean numeric) {
    public static Cell text(String text) {
      return new Cell(escape(text), false);
    }

    public static Cell number(String text) {
      return new Cell(escape(text), true);
    }

    public static Cell html(String html) {
      return new Cell(html, false);
    }
  }

  /** One bar: its label, its value, and whether it is drawn in the warning colour. */
  public record Bar(String label, double value, boolean highlighted) {}
}
