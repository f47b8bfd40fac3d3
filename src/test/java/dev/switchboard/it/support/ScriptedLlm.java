package dev.switchboard.it.support;

import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ScriptedProvider;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.List;

/**
 * The scripted OpenAI-compatible provider on {@code it.llm.port}, where the IT server's bootstrap properties point its
 * LLM, running for the tests of a class. Use with {@code @RegisterExtension static final ScriptedLlm llm = new ScriptedLlm()};
 * a request whose last user message carries a script's key is answered by that script.
 */
public final class ScriptedLlm implements BeforeAllCallback, AfterAllCallback {

    /** The port the build's IT server expects the provider on ({@code it.llm.port} in pom.xml). */
    public static final int PORT = Integer.getInteger("it.llm.port", 18499);

    private ScriptedProvider provider;

    @Override
    public void beforeAll(ExtensionContext context) {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        stop();
    }

    /** Starts it again after {@link #stop()}. */
    public void start() {
        provider = ScriptedProvider.start(PORT);
    }

    /** Stops it: the server then finds no LLM at all. */
    public void stop() {
        if (provider != null) {
            provider.close();
            provider = null;
        }
    }

    public Script script(Reply... replies) {
        return provider.script(replies);
    }

    /** The Authorization header of every request it received, in order. */
    public List<String> authorizations() {
        return provider.authorizations();
    }
}
