package dev.switchboard.docs;

/** Where in a text an offset is, for messages that point at a line. */
final class TextLines {

    private TextLines() {
    }

    /** The 1-based line of the character at {@code offset}. */
    static int lineOf(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }
}
