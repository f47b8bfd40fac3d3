package dev.switchboard.workspace;

/**
 * What one workspace may hold.
 *
 * @param maxFileBytes largest file the tools read or write
 * @param maxFiles     most regular files in one workspace; a write that would add one more is refused
 */
public record WorkspaceLimits(long maxFileBytes, int maxFiles) {
}
