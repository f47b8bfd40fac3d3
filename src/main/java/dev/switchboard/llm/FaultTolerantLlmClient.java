package dev.switchboard.llm;

import jakarta.json.JsonObject;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;

/**
 * A provider whose calls go through {@link ProviderCalls} (the CDI bean, so through its Fault Tolerance interceptor),
 * with the breaker's refusal said in the API's words: an unavailable provider, and why it was not called.
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
            throw new LlmException(LlmException.Kind.UNAVAILABLE, "The LLM provider " + name + " is not called: the last "
                    + "calls to the LLM providers failed, so calls fail at once until the circuit breaker's delay is over ("
                    + ProviderCalls.BREAKER_KEYS + "delay, " + ProviderCalls.OPEN_SECONDS + " s by default)", 0, e);
        }
    }
}
