package dev.switchboard.it.support;

import dev.switchboard.testing.ServerEverything;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.List;

/**
 * For the chat tests of a class: a real Streamable HTTP server-everything that a new user of the default tenant
 * registers as their own server (some tools auto-approved, some disabled), and an assistant of that user using it.
 * Use with {@code @RegisterExtension static final EverythingAssistant chat = new EverythingAssistant("label", ...)}.
 */
public final class EverythingAssistant implements BeforeAllCallback, AfterAllCallback {

    private final String label;
    private final List<String> autoApproved;
    private final List<String> disabled;
    private ServerEverything backend;
    private String owner;
    private String serverName;
    private long assistant;

    /** The server is registered as {@code label-{random}}. */
    public EverythingAssistant(String label, List<String> autoApproved, List<String> disabled) {
        this.label = label;
        this.autoApproved = autoApproved;
        this.disabled = disabled;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        backend = ServerEverything.start(ServerEverything.Mode.STREAMABLE_HTTP);
        owner = Api.newUser("default");
        serverName = Names.unique(label);
        assistant = Chat.assistant(owner, Chat.server(owner, serverName, backend.url(), autoApproved, disabled));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (backend != null) {
            backend.close();
        }
    }

    /** The token of the user who owns the server and the assistant. */
    public String owner() {
        return owner;
    }

    /** The server's name, as the chat loop names its tools. */
    public String serverName() {
        return serverName;
    }

    /** The assistant's id. */
    public long assistant() {
        return assistant;
    }

    /** A tool of the server as the LLM is offered it: {@code mcp__{server}__{tool}}. */
    public String tool(String name) {
        return "mcp__" + serverName + "__" + name;
    }
}
