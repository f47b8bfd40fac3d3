package dev.switchboard.workspace;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The file operations of the built-in workspace tools, confined to one workspace and its limits. */
final class WorkspaceFiles {

    private final WorkspacePaths paths;
    private final WorkspaceLimits limits;

    WorkspaceFiles(WorkspacePaths paths, WorkspaceLimits limits) {
        this.paths = paths;
        this.limits = limits;
    }

    String read(String relative) throws WorkspaceException {
        Path file = paths.resolve(relative);
        try {
            if (!Files.isRegularFile(file)) {
                throw new WorkspaceException("File '" + relative + "' does not exist in the workspace");
            }
            long size = Files.size(file);
            if (size > limits.maxFileBytes()) {
                throw new WorkspaceException("File '" + relative + "' has " + size + " bytes; the limit is " + limits.maxFileBytes());
            }
            byte[] bytes = Files.readAllBytes(file);
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new WorkspaceException("File '" + relative + "' is not UTF-8 text");
        } catch (IOException e) {
            throw new WorkspaceException("Could not read '" + relative + "': " + e.getMessage());
        }
    }

    /** Writes (replaces) a UTF-8 text file, creating its folders; never through a symbolic link. */
    String write(String relative, String content) throws WorkspaceException {
        Path file = paths.resolve(relative);
        if (file.equals(paths.root())) {
            throw new WorkspaceException("Path '" + relative + "' is the workspace itself, not a file");
        }
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > limits.maxFileBytes()) {
            throw new WorkspaceException("Content of " + bytes.length + " bytes is over the limit of " + limits.maxFileBytes() + " bytes per file");
        }
        try {
            if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS) && countFiles() >= limits.maxFiles()) {
                throw new WorkspaceException("The workspace already holds " + limits.maxFiles() + " files, its limit; delete one first");
            }
            Files.createDirectories(file.getParent());
            paths.requireInside(file.getParent(), relative);
            try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                out.write(bytes);
            }
            return "Wrote " + bytes.length + " bytes to " + paths.relative(file);
        } catch (IOException e) {
            throw new WorkspaceException("Could not write '" + relative + "': " + e.getMessage());
        }
    }

    /** Every file and folder under {@code relative}, one per line: folders with a trailing '/', files with their size. */
    String list(String relative) throws WorkspaceException {
        Path dir = paths.resolve(relative);
        if (!Files.isDirectory(dir)) {
            throw new WorkspaceException("Folder '" + relative + "' does not exist in the workspace");
        }
        List<String> lines = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path path : (Iterable<Path>) walk.skip(1).sorted()::iterator) {
                // never followed: a link's target may be outside, and even its size is not the workspace's to tell
                BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                String kind = attributes.isDirectory() ? "/" : attributes.isSymbolicLink() ? " (symbolic link)"
                        : " (" + attributes.size() + " bytes)";
                lines.add(paths.relative(path) + kind);
            }
        } catch (IOException e) {
            throw new WorkspaceException("Could not list '" + relative + "': " + e.getMessage());
        }
        return lines.isEmpty() ? "(empty)" : String.join("\n", lines);
    }

    /** Deletes a file, a symbolic link (not its target) or an empty folder. */
    String delete(String relative) throws WorkspaceException {
        Path path = paths.resolve(relative);
        if (path.equals(paths.root())) {
            throw new WorkspaceException("The workspace itself cannot be deleted");
        }
        try {
            Files.delete(path);
            return "Deleted " + paths.relative(path);
        } catch (NoSuchFileException e) {
            throw new WorkspaceException("'" + relative + "' does not exist in the workspace");
        } catch (DirectoryNotEmptyException e) {
            throw new WorkspaceException("Folder '" + relative + "' is not empty");
        } catch (IOException e) {
            throw new WorkspaceException("Could not delete '" + relative + "': " + e.getMessage());
        }
    }

    private long countFiles() throws IOException {
        try (Stream<Path> walk = Files.walk(paths.root())) {
            return walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).count();
        }
    }
}
