package dev.switchboard.knowledge;

/**
 * What the last build of the index holds.
 *
 * @param files    files indexed
 * @param passages passages indexed
 * @param skipped  files left out (too large, unreadable)
 * @param millis   how long the build took
 */
public record IndexStats(int files, int passages, int skipped, long millis) {

    static final IndexStats EMPTY = new IndexStats(0, 0, 0, 0);
}
