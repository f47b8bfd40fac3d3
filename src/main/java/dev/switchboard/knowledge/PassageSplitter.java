package dev.switchboard.knowledge;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Cuts a file into passages of about {@code targetChars} characters along line boundaries, preferring to cut
 * before a Markdown heading or after a blank line (paragraphs, Go declarations) once a passage is half full, so
 * passages follow the document's own sections. A single line longer than the target (minified text, a long
 * paragraph without breaks) is cut into pieces that all carry that line's number.
 */
final class PassageSplitter {

    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s.*");

    private final int targetChars;

    PassageSplitter(int targetChars) {
        this.targetChars = targetChars;
    }

    List<Passage> split(String source, String content) {
        String[] lines = content.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1);
        List<Passage> passages = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int start = 1;
        int end = 1;
        for (int i = 0; i < lines.length; i++) {
            int lineNo = i + 1;
            String line = lines[i];
            boolean halfFull = current.length() >= targetChars / 2;
            boolean sectionBreak = HEADING.matcher(line).matches() || (i > 0 && lines[i - 1].isBlank());
            if (current.length() > 0 && (current.length() + line.length() + 1 > targetChars || halfFull && sectionBreak)) {
                add(passages, source, start, end, current);
                current.setLength(0);
            }
            if (current.length() == 0) {
                if (line.isBlank()) {
                    continue;
                }
                start = lineNo;
            }
            if (line.length() > targetChars) {
                for (int from = 0; from < line.length(); from += targetChars) {
                    add(passages, source, lineNo, lineNo, new StringBuilder(line.substring(from, Math.min(line.length(), from + targetChars))));
                }
                continue;
            }
            current.append(line).append('\n');
            if (!line.isBlank()) {
                end = lineNo;
            }
        }
        add(passages, source, start, end, current);
        return passages;
    }

    /** Blank passages carry nothing to match; trailing newlines are layout, not content. */
    private static void add(List<Passage> passages, String source, int start, int end, CharSequence text) {
        String value = text.toString().stripTrailing();
        if (!value.isBlank()) {
            passages.add(new Passage(source, start, end, value));
        }
    }
}
