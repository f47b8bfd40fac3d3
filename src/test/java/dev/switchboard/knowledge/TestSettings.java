package dev.switchboard.knowledge;

import java.nio.file.Path;
import java.time.Duration;

/** The settings a server runs with by default (see {@link KnowledgeConfiguration}), for a folder of the test's. */
final class TestSettings {

    private TestSettings() {
    }

    static KnowledgeSettings defaults(Path folder) {
        return new KnowledgeSettings(folder, KnowledgeSettings.DEFAULT_EXTENSIONS, 1024 * 1024, 800, Duration.ofSeconds(10));
    }
}
