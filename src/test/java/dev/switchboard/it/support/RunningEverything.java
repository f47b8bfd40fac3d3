package dev.switchboard.it.support;

import dev.switchboard.testing.ServerEverything;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real server-everything running for the tests of a class, registered nowhere: the test registers it as it needs.
 * Use with {@code @RegisterExtension static final RunningEverything backend = new RunningEverything(...)}.
 */
public final class RunningEverything implements BeforeAllCallback, AfterAllCallback {

    private final ServerEverything.Mode mode;
    private ServerEverything process;

    public RunningEverything(ServerEverything.Mode mode) {
        this.mode = mode;
    }

    /** Over Streamable HTTP, the transport most tests use. */
    public static RunningEverything streamableHttp() {
        return new RunningEverything(ServerEverything.Mode.STREAMABLE_HTTP);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        process = ServerEverything.start(mode);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (process != null) {
            process.close();
        }
    }

    /** Where a client reaches it. */
    public String url() {
        return process.url();
    }

    public int port() {
        return process.port();
    }

    /** The process itself, to kill or restart it. */
    public ServerEverything process() {
        return process;
    }
}
