package dev.switchboard.knowledge;

import java.time.Duration;

/**
 * The limits on uploaded knowledge documents.
 *
 * @param maxBytes          largest file accepted (413 {@code file_too_large} above it)
 * @param maxTextChars      most characters of text a document may yield (422 {@code text_too_long}): the write limit
 *                          that also ends the extraction of a zip bomb or an endless PDF as soon as it is reached
 * @param extractionTimeout how long one extraction may take, waiting for a free extraction thread included (422
 *                          {@code extraction_timeout})
 * @param extractionThreads how many documents are extracted at once; more uploads wait in a short queue, and are
 *                          refused (503 {@code extraction_busy}) when it is full
 */
public record DocumentSettings(long maxBytes, int maxTextChars, Duration extractionTimeout, int extractionThreads) {

    public DocumentSettings {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("switchboard.knowledge.documents.max-bytes must be positive");
        }
        if (maxTextChars < 1) {
            throw new IllegalArgumentException("switchboard.knowledge.documents.max-text-chars must be positive");
        }
        if (extractionTimeout.isNegative() || extractionTimeout.isZero()) {
            throw new IllegalArgumentException("switchboard.knowledge.documents.extraction-timeout must be positive");
        }
        if (extractionThreads < 1) {
            throw new IllegalArgumentException("switchboard.knowledge.documents.extraction-threads must be at least 1");
        }
    }
}
