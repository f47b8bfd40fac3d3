package dev.switchboard.it;

import dev.switchboard.testing.ServerEverything;
import jakarta.json.Json;

import java.util.UUID;

/** A Streamable HTTP server-everything registered as a shared server of the default tenant, so /mcp serves it. */
final class SharedEverything implements AutoCloseable {

    private final ServerEverything backend;
    private final long id;
    private final String name;

    private SharedEverything(ServerEverything backend, long id, String name) {
        this.backend = backend;
        this.id = id;
        this.name = name;
    }

    /** Starts one and registers it under {@code gw-{label}-{random}}. */
    static SharedEverything register(String label) {
        Api.awaitReady();
        ServerEverything backend = ServerEverything.start(ServerEverything.Mode.STREAMABLE_HTTP);
        String name = GatewayStreamableHttpIT.PREFIX + label + "-" + UUID.randomUUID().toString().substring(0, 6);
        long id = Api.post("/api/mcp-servers", Api.adminToken(), Json.createObjectBuilder().add("name", name)
                .add("baseUrl", backend.url()).add("scope", "shared").build()).expect(201).json().getJsonNumber("id").longValue();
        return new SharedEverything(backend, id, name);
    }

    long id() {
        return id;
    }

    /** Its gateway name, the prefix of its tools on /mcp. */
    String name() {
        return name;
    }

    @Override
    public void close() {
        Api.delete("/api/mcp-servers/" + id, Api.adminToken()).expect(204);
        backend.close();
    }
}
