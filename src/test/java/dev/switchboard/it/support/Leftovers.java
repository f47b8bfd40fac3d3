package dev.switchboard.it.support;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.ArrayList;
import java.util.List;

/**
 * What the tests of a class made on the server and remove after all of them, as admin: assistants, then servers
 * (which closes their stdio processes inside Switchboard), users, then tenants (a tenant goes only without users).
 * Use with {@code @RegisterExtension static final Leftovers leftovers = new Leftovers()}.
 */
public final class Leftovers implements AfterAllCallback {

    private final List<Long> assistants = new ArrayList<>();
    private final List<Long> servers = new ArrayList<>();
    private final List<String> users = new ArrayList<>();
    private final List<String> tenants = new ArrayList<>();

    public synchronized void assistant(long id) {
        assistants.add(id);
    }

    public synchronized void server(long id) {
        servers.add(id);
    }

    public synchronized void user(String name) {
        users.add(name);
    }

    public synchronized void tenant(String id) {
        tenants.add(id);
    }

    @Override
    public synchronized void afterAll(ExtensionContext context) {
        if (assistants.isEmpty() && servers.isEmpty() && users.isEmpty() && tenants.isEmpty()) {
            return;
        }
        String admin = Api.adminToken();
        assistants.forEach(id -> Api.delete("/api/assistants/" + id, admin));
        servers.forEach(id -> Api.delete("/api/mcp-servers/" + id, admin));
        users.forEach(name -> Api.delete("/api/users/" + name, admin));
        tenants.forEach(id -> Api.delete("/api/tenants/" + id, admin));
    }
}
