package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.testing.ServerEverything;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The test-only proxy ({@code src/test/node/auth-proxy.mjs}) in front of the IT server that adds the bearer token of a
 * new user to every request, for clients that cannot send one (the conformance suite), running for the tests of a
 * class. Use with {@code @RegisterExtension static final TokenProxy proxy = new TokenProxy()}.
 */
final class TokenProxy implements BeforeAllCallback, AfterAllCallback {

    private String token;
    private int port;
    private Process process;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        token = Api.newUser("default");
        port = ServerEverything.freePort();
        process = ConformanceSuite.startProxy(port, token);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (process != null) {
            process.destroy();
        }
    }

    /** The IT server's URL for this path, through the proxy. */
    String url(String path) {
        return "http://localhost:" + port + path;
    }

    /** The token the proxy adds: the user's own calls may use it too. */
    String token() {
        return token;
    }
}
