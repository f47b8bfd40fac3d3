package dev.switchboard.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.function.Supplier;

/**
 * Key material kept in the data directory: created once with owner-only permissions, then reused.
 * When two instances race on an empty data directory, the file that landed first wins and both read it.
 */
final class OwnerOnlyFiles {

    private OwnerOnlyFiles() {
    }

    /** The file's bytes, creating it from {@code create} first when it does not exist yet. */
    static byte[] readOrCreate(Path file, Supplier<byte[]> create) {
        try {
            if (Files.exists(file)) {
                return Files.readAllBytes(file);
            }
            Files.createDirectories(file.toAbsolutePath().getParent());
            Path tmp = createOwnerOnly(file.resolveSibling(file.getFileName() + ".tmp-" + ProcessHandle.current().pid()
                    + "-" + System.nanoTime()));
            try {
                Files.write(tmp, create.get());
                try {
                    Files.move(tmp, file);
                } catch (FileAlreadyExistsException lostRace) {
                    // another instance created it meanwhile: use theirs
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read or create " + file, e);
        }
    }

    private static Path createOwnerOnly(Path file) throws IOException {
        if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            FileAttribute<?> ownerOnly = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
            return Files.createFile(file, ownerOnly);
        }
        Path created = Files.createFile(file);
        java.io.File f = created.toFile();
        f.setReadable(false, false);
        f.setWritable(false, false);
        f.setReadable(true, true);
        f.setWritable(true, true);
        return created;
    }
}
