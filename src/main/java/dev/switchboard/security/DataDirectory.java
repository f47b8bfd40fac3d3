package dev.switchboard.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Path;
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
}
