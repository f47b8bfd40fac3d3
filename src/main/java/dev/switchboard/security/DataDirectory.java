package dev.switchboard.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Where key files live: {@code switchboard.data-dir}, set by server.xml to the server's data directory. */
@ApplicationScoped
public class DataDirectory {

    @Inject
    @ConfigProperty(name = "switchboard.data-dir", defaultValue = "data")
    String dataDir;

    Path resolve(String fileName) {
        return Path.of(dataDir).resolve(fileName);
    }

    /** A key file of another room: read it, or create it once (owner-only) from {@code create}. */
    public byte[] readOrCreateKeyFile(String fileName, Supplier<byte[]> create) {
        return OwnerOnlyFiles.readOrCreate(resolve(fileName), create);
    }
}
