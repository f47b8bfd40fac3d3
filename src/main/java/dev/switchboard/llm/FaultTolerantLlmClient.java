package dev.switchboard.llm;

import jakarta.json.JsonObject;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;

/**
 * A provider whose calls go through its own {@link ProviderCalls} bean (so through that bean's Fault Tolerance
 * interceptor and breaker), with the breaker's refusal said in the API's words: an unavailable provider, and why it
 * was not called.
 */
final class FaultTolerantLlmClient implements LlmClient {

    private final LlmClient provider;
    private final String name;
    private final ProviderCalls calls;

    FaultTolerantLlmClient(LlmClient provider, String name, ProviderCalls calls) {
        this.provider = provider;
        this.name = name;
        this.calls = calls;
    }

    @Override
    public String defaultModel() {
        return provider.defaultModel();
    }

    @Override
    public LlmReply complete(JsonObject request) throws LlmException {
        return guarded(p -> p.complete(request));
    }

    @Override
    public LlmReply stream(JsonObject request, StreamListener listener) throws LlmException {
        return guarded(p -> p.stream(request, listener));
    }

    private LlmReply guarded(ProviderCalls.Call call) throws LlmException {
        try {
            return calls.call(provider, call);
        } catch (ProviderCalls.ProviderAnswered e) {
            throw e.answer();
        } catch (CircuitBreakerOpenException e) {
            throw new LlmException(LlmException.Kind.UNAVAILABLE, "The LLM provider " + name + " is not called: its last "
                    + "calls failed, so its calls fail at once until its circuit breaker's delay is over ("
                    + ProviderCalls.BREAKER_KEYS + "delay, " + ProviderCalls.OPEN_SECONDS + " s by default)", 0, e);
        }
    }
}
