package dev.switchboard.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Relative links of Markdown files and whether they lead somewhere: the file must exist, and a {@code #anchor} must be
 * one that GitHub gives a heading of the target (or an HTML {@code id}/{@code name} in it). Links to other sites are
 * not followed; code blocks and code spans are not read for links.
 */
final class MarkdownLinks {

    /** One broken link: where it is, what it points at, and why it leads nowhere. */
    record Broken(Path file, int line, String target, String reason) {
        @Override
        public String toString() {
            return file + ":" + line + ": link '" + target + "': " + reason;
        }
    }

    private static final Pattern INLINE_LINK =
            Pattern.compile("!?\\[(?:[^\\[\\]]|\\[[^\\[\\]]*\\])*\\]\\(\\s*(<[^>]*>|[^)\\s]+)(?:\\s+(?:\"[^\"]*\"|'[^']*'))?\\s*\\)");
    private static final Pattern REFERENCE_DEFINITION = Pattern.compile("(?m)^ {0,3}\\[[^\\]]+\\]:\\s*(<[^>]*>|\\S+)");
    private static final Pattern ATX_HEADING = Pattern.compile("^ {0,3}#{1,6}(?:[ \\t]+(.*?))?(?:[ \\t]+#+)?[ \\t]*$");
    private static final Pattern HTML_ID = Pattern.compile("<[a-zA-Z][^>]*\\s(?:id|name)\\s*=\\s*\"([^\"]+)\"");
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");
    private static final Pattern FENCE = Pattern.compile("^ {0,3}(```+|~~~+)");

    private final Path root;
    private final Map<Path, Set<String>> anchorsByFile = new HashMap<>();

    /** @param root the repository root, which a link starting with {@code /} is relative to (as on GitHub) */
    MarkdownLinks(Path root) {
        this.root = root;
    }

    /** The broken relative links of one Markdown file. */
    List<Broken> brokenLinks(Path file) {
        String text = read(file);
        String prose = withoutCode(text);
        List<Broken> broken = new ArrayList<>();
        for (Pattern pattern : List.of(INLINE_LINK, REFERENCE_DEFINITION)) {
            Matcher m = pattern.matcher(prose);
            while (m.find()) {
                String target = m.group(1);
                if (target.startsWith("<") && target.endsWith(">")) {
                    target = target.substring(1, target.length() - 1);
                }
                String reason = whyBroken(file, target);
                if (reason != null) {
                    broken.add(new Broken(root.relativize(file), TextLines.lineOf(text, m.start()), target, reason));
                }
            }
        }
        broken.sort((a, b) -> Integer.compare(a.line(), b.line()));
        return broken;
    }

    private String whyBroken(Path file, String target) {
        if (SCHEME.matcher(target).find() || target.startsWith("//")) {
            return null;
        }
        int hash = target.indexOf('#');
        String pathPart = decode(hash < 0 ? target : target.substring(0, hash));
        String anchor = hash < 0 ? null : decode(target.substring(hash + 1));
        Path resolved;
        if (pathPart.isEmpty()) {
            resolved = file;
        } else if (pathPart.startsWith("/")) {
            resolved = root.resolve(pathPart.substring(1)).normalize();
        } else {
            resolved = file.getParent().resolve(pathPart).normalize();
        }
        if (!resolved.startsWith(root)) {
            return "leads outside the repository (" + resolved + ")";
        }
        if (!Files.exists(resolved)) {
            return "no such file " + root.relativize(resolved);
        }
        if (anchor == null || anchor.isEmpty() || !resolved.getFileName().toString().endsWith(".md")) {
            return null;
        }
        Set<String> anchors = anchorsByFile.computeIfAbsent(resolved, p -> anchors(read(p)));
        if (!anchors.contains(anchor)) {
            return "no heading of " + root.relativize(resolved) + " has the anchor '#" + anchor + "'";
        }
        return null;
    }

    /** The anchors GitHub gives a Markdown text: one per heading (duplicates numbered), plus HTML ids and names. */
    static Set<String> anchors(String text) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean inFence = false;
        String fence = null;
        for (String line : text.split("\n", -1)) {
            Matcher f = FENCE.matcher(line);
            if (f.find()) {
                String marker = f.group(1);
                if (!inFence) {
                    inFence = true;
                    fence = marker;
                } else if (marker.charAt(0) == fence.charAt(0) && marker.length() >= fence.length()
                        && line.strip().equals(marker)) {
                    inFence = false;
                }
                continue;
            }
            if (inFence) {
                continue;
            }
            Matcher h = ATX_HEADING.matcher(line);
            if (h.matches()) {
                String slug = slug(h.group(1) == null ? "" : h.group(1));
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(n == 0 ? slug : slug + "-" + n);
            }
            Matcher id = HTML_ID.matcher(line);
            while (id.find()) {
                anchors.add(id.group(1));
            }
        }
        return anchors;
    }

    /**
     * GitHub's anchor of a heading (github-slugger): the heading's text as rendered (code spans verbatim, links as
     * their text, no {@code *} or {@code ~~} emphasis marks, no HTML tags), lower case, every character that is not a
     * letter, mark, digit, underscore, hyphen or space removed, spaces as hyphens.
     */
    static String slug(String heading) {
        StringBuilder rendered = new StringBuilder();
        Matcher code = CODE_SPAN.matcher(heading);
        int at = 0;
        while (code.find()) {
            rendered.append(renderedProse(heading.substring(at, code.start()))).append(code.group(2));
            at = code.end();
        }
        rendered.append(renderedProse(heading.substring(at)));
        StringBuilder slug = new StringBuilder();
        rendered.toString().strip().toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            if (c == ' ') {
                slug.append('-');
            } else if (c == '-' || c == '_' || Character.isLetterOrDigit(c)
                    || Character.getType(c) == Character.NON_SPACING_MARK
                    || Character.getType(c) == Character.COMBINING_SPACING_MARK) {
                slug.appendCodePoint(c);
            }
        });
        return slug.toString();
    }

    private static String renderedProse(String prose) {
        return prose.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replaceAll("<[^>]+>", "").replaceAll("\\*|~~", "");
    }

    /** The text with fenced code blocks and code spans blanked out (line breaks kept, so offsets stay). */
    static String withoutCode(String text) {
        StringBuilder out = new StringBuilder(text.length());
        boolean inFence = false;
        String fence = null;
        for (String line : text.split("\n", -1)) {
            Matcher f = FENCE.matcher(line);
            boolean fenceLine = f.find();
            if (fenceLine && !inFence) {
                inFence = true;
                fence = f.group(1);
                out.append(" ".repeat(line.length()));
            } else if (inFence) {
                if (fenceLine && f.group(1).charAt(0) == fence.charAt(0) && f.group(1).length() >= fence.length()
                        && line.strip().equals(f.group(1))) {
                    inFence = false;
                }
                out.append(" ".repeat(line.length()));
            } else {
                out.append(line);
            }
            out.append('\n');
        }
        out.setLength(text.length());
        return blankCodeSpans(out.toString());
    }

    private static String blankCodeSpans(String text) {
        StringBuilder out = new StringBuilder(text);
        int i = 0;
        while (i < text.length()) {
            if (text.charAt(i) != '`') {
                i++;
                continue;
            }
            int run = 0;
            while (i + run < text.length() && text.charAt(i + run) == '`') {
                run++;
            }
            String ticks = "`".repeat(run);
            int close = text.indexOf(ticks, i + run);
            while (close >= 0 && close + run < text.length() && text.charAt(close + run) == '`') {
                close = text.indexOf(ticks, close + run + 1);
            }
            if (close < 0) {
                i += run;
                continue;
            }
            for (int k = i; k < close + run; k++) {
                if (out.charAt(k) != '\n') {
                    out.setCharAt(k, ' ');
                }
            }
            i = close + run;
        }
        return out.toString();
    }


    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
