package dev.switchboard.it.console;

import dev.switchboard.it.support.CrowdedGateway;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The console's gateway page at the size of a real installation, in a real browser: {@code
 * src/test/node/console-gateway-e2e.mjs} drives Debian's Chromium with playwright-core as the admin of a
 * {@link CrowdedGateway} tenant (over 80 tools from seven backends, 30 recorded sessions). With every detail shut the
 * page stays under {@value #MAX_HEIGHT} px at 1280x800 (it grew past 9,000 px when it listed every tool and backend
 * session at once); a search finds a tool, its details open and shut on click, the backend, annotation and status
 * filters narrow the list, "Load more" reads every tool once, a backend card shows its tools, and the sessions are
 * searched by client and filtered by state and protocol version, a row's backend sessions opening on click.
 * Screenshots {@code gateway-NN-*.png} in {@code target/console-screenshots}.
 */
class ConsoleGatewayBrowserIT {

    private static final Path LOG = Paths.get("target", "console-gateway-e2e.log").toAbsolutePath();
    /** The page's height at 1280x800 with every detail shut, at most. */
    private static final int MAX_HEIGHT = 2500;

    @RegisterExtension
    static final CrowdedGateway crowd = new CrowdedGateway("console-crowd");

    @Test
    void theGatewayPageStaysUsableWithManyToolsAndSessions() throws Exception {
        JsonObject result = BrowserWalkthrough.run("console-gateway-e2e.mjs", LOG, List.of(
                "--admin", crowd.admin(),
                "--backends", String.join(",", crowd.backends()),
                "--max-height", String.valueOf(MAX_HEIGHT))).assertPassed();

        assertTrue(result.getInt("totalTools") > 80, () -> "the page listed every tool: " + result);
        assertTrue(result.getInt("pageHeight") < MAX_HEIGHT, () -> "the page's height: " + result);
        long screenshots = BrowserWalkthrough.screenshots("gateway-\\d\\d-.*\\.png").size();
        assertEquals(result.getJsonArray("screenshots").size(), screenshots, "one screenshot per step");
    }
}
