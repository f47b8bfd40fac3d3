package dev.switchboard.workspace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Turns a path the LLM wrote into a path inside one workspace, or refuses it. Only relative paths without
 * {@code ..} are accepted, and what they resolve to must stay inside the workspace after following symlinks: the
 * real path of the target (or of its nearest existing ancestor, for a file still to be written) is checked, so a
 * link placed in the workspace cannot lead out of it.
 */
final class WorkspacePaths {

    private final Path root;

    /** @param root the workspace directory; must exist */
    WorkspacePaths(Path root) throws IOException {
        this.root = root.toRealPath();
    }

    Path root() {
        return root;
    }

    /** The path for {@code relative}; "" and "." are the workspace itself. */
    Path resolve(String relative) throws WorkspaceException {
        if (relative == null) {
            throw new WorkspaceException("A 'path' (a string) is required");
        }
        String text = relative.strip();
        if (text.indexOf('\0') >= 0) {
            throw new WorkspaceException("Path '" + relative + "' is not valid");
        }
        if (text.startsWith("/") || text.startsWith("\\") || text.startsWith("~") || text.matches("^[A-Za-z]:.*")) {
            throw new WorkspaceException("Path '" + relative + "' is absolute; use a path relative to the workspace");
        }
        Path path;
        try {
            path = Path.of(text.isEmpty() ? "." : text);
        } catch (InvalidPathException e) {
            throw new WorkspaceException("Path '" + relative + "' is not valid");
        }
        for (Path part : path) {
            if (part.toString().equals("..")) {
                throw new WorkspaceException("Path '" + relative + "' leaves the workspace: '..' is not allowed");
            }
        }
        Path resolved = root.resolve(path).normalize();
        requireInside(resolved, relative);
        return resolved;
    }

    /** Follows links: the real location of the path, or of its nearest existing ancestor, must be in the workspace. */
    void requireInside(Path path, String shown) throws WorkspaceException {
        Path existing = path;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        try {
            Path real = existing == null ? null : existing.toRealPath();
            if (real == null || !real.startsWith(root)) {
                throw new WorkspaceException("Path '" + shown + "' leads outside the workspace (through a symbolic link)");
            }
        } catch (IOException e) {
            // a dangling link: its target does not exist, and it must not be created through the link either
            throw new WorkspaceException("Path '" + shown + "' leads outside the workspace (through a symbolic link)");
        }
    }

    /** The path as the LLM should write it: relative to the workspace, with '/' separators. */
    String relative(Path path) {
        String text = root.relativize(path).toString().replace('\\', '/');
        return text.isEmpty() ? "." : text;
    }
}
