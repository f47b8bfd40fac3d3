package dev.switchboard.knowledge;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The knowledge files of a folder with their size and modification time: cheap to take (attributes only, no
 * reading), and two scans are equal exactly when no indexed file was added, removed, resized or touched, which is
 * how a change is noticed without a watcher thread.
 * <p>
 * Hidden files and folders ({@code .git}) and symbolic links are left out: the folder is what an admin put there,
 * and a link could expose files outside it to every user's search.
 *
 * @param files the matching regular files, sorted by relative path; too large ones included (so shrinking one is a
 *              change too)
 */
record FolderScan(List<FileStamp> files) {

    private static final Logger LOG = Logger.getLogger(FolderScan.class.getName());

    /** One file as last seen: path relative to the folder ({@code /} separators), size, modification time. */
    record FileStamp(String source, Path path, long size, long modifiedMillis) {
    }

    static FolderScan of(KnowledgeSettings settings) {
        Path folder = settings.folder();
        if (!Files.isDirectory(folder)) {
            return new FolderScan(List.of());
        }
        List<FileStamp> files = new ArrayList<>();
        try {
            Files.walkFileTree(folder, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    return !dir.equals(folder) && hidden(dir) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (attrs.isRegularFile() && !hidden(file) && settings.indexes(file.getFileName().toString())) {
                        String source = folder.relativize(file).toString().replace('\\', '/');
                        files.add(new FileStamp(source, file, attrs.size(), attrs.lastModifiedTime().toMillis()));
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    LOG.log(Level.WARNING, "Knowledge base: cannot read " + file + ", left out: " + e);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            LOG.log(Level.WARNING, "Knowledge base: cannot list " + folder + ": " + e);
        }
        files.sort(Comparator.comparing(FileStamp::source));
        return new FolderScan(List.copyOf(files));
    }

    private static boolean hidden(Path path) {
        return path.getFileName().toString().startsWith(".");
    }
}
