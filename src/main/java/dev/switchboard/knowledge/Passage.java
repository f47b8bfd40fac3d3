package dev.switchboard.knowledge;

/**
 * A piece of a knowledge file or document, the unit that is ranked and injected, so a long file can match in its
 * relevant part only.
 *
 * @param source     the file's path relative to the knowledge folder ({@code /} separators), or the document's name
 * @param startLine  first line (1-based) of the passage in the file or the document's text
 * @param endLine    last line, inclusive
 * @param text       the passage's text
 * @param documentId the knowledge document it comes from; null for a file of the folder
 */
public record Passage(String source, int startLine, int endLine, String text, Long documentId) {

    /** A passage of a file of the knowledge folder. */
    public Passage(String source, int startLine, int endLine, String text) {
        this(source, startLine, endLine, text, null);
    }

    /** The same passage, of this knowledge document. */
    Passage of(long document) {
        return new Passage(source, startLine, endLine, text, document);
    }
}
