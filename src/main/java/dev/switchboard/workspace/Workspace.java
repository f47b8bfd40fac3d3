package dev.switchboard.workspace;

import java.io.IOException;
import java.nio.file.Path;

/** One session's workspace directory and the limits its tools keep to. */
public final class Workspace {

    private final Path directory;
    private final WorkspaceLimits limits;

    Workspace(Path directory, WorkspaceLimits limits) {
        this.directory = directory;
        this.limits = limits;
    }

    public Path directory() {
        return directory;
    }

    WorkspaceFiles files() throws WorkspaceException {
        try {
            return new WorkspaceFiles(new WorkspacePaths(directory), limits);
        } catch (IOException e) {
            throw new WorkspaceException("The workspace is gone (it expired?): " + e.getMessage());
        }
    }
}
