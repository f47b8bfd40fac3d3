package dev.switchboard.knowledge;

/**
 * A piece of a knowledge file, the unit that is ranked and injected, so a long file can match in its relevant
 * part only.
 *
 * @param source    the file's path relative to the knowledge folder, with {@code /} separators
 * @param startLine first line (1-based) of the passage in the file
 * @param endLine   last line, inclusive
 * @param text      the passage's text
 */
public record Passage(String source, int startLine, int endLine, String text) {
}
