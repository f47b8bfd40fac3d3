package dev.switchboard.it.support;

import dev.switchboard.testing.ServerEverything;
import jakarta.json.Json;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A Streamable HTTP server-everything registered as a shared server of the default tenant, so {@code /mcp} serves it,
 * for the tests of a class: started and registered before them, removed after. Use with
 * {@code @RegisterExtension static final SharedEverything backend = new SharedEverything("label")}.
 */
public final class SharedEverything implements BeforeAllCallback, AfterAllCallback {

    private final String label;
    private ServerEverything backend;
    private long id;
    private String name;

    /** Registered as {@code gw-{label}-{random}}. */
    public SharedEverything(String label) {
        this.label = label;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        Api.awaitReady();
        backend = ServerEverything.start(ServerEverything.Mode.STREAMABLE_HTTP);
        name = Names.unique(Servers.GATEWAY_PREFIX + label);
        id = Servers.register(Api.adminToken(), Json.createObjectBuilder().add("name", name)
                .add("baseUrl", backend.url()).add("scope", "shared").build());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (backend == null) {
            return;
        }
        try {
            if (name != null && id != 0) {
                Api.delete("/api/mcp-servers/" + id, Api.adminToken()).expect(204);
            }
        } finally {
            backend.close();
        }
    }

    public long id() {
        return id;
    }

    /** Its gateway name, the prefix of its tools on /mcp. */
    public String name() {
        return name;
    }

    /** Where the gateway reaches it, and where a client may reach it directly. */
    public String url() {
        return backend.url();
    }
}
