package dev.switchboard.gateway.modern;

import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.RequestMeta;
import dev.switchboard.mcp.ServerRequestHandler;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Multi round-trip requests of MCP 2026-07-28 in front of session-era backends. A backend serving a stateless
 * client's {@code tools/call}, {@code prompts/get} or {@code resources/read} may ask that client something
 * ({@code sampling/createMessage}, {@code elicitation/create}, {@code roots/list}). The call then goes on on a worker
 * of its own while the client is answered {@code input_required}: the questions under keys, and a sealed
 * {@link RequestState}. The client's retry of the same request with {@code inputResponses} and that state hands the
 * answers to the waiting backend, and is answered with what comes next: the call's outcome, or the next questions.
 * The backend never notices that its client is of another era.
 */
final class InputRequiredBridge {

    /** The requests whose results may be {@code input_required} in 2026-07-28. */
    static final Set<String> SERVED = Set.of("tools/call", "prompts/get", "resources/read");
    static final String INPUT_REQUIRED = "input_required";

    private static final Logger LOG = Logger.getLogger(InputRequiredBridge.class.getName());

    private final PausedCalls paused;
    private final RequestMeta meta;
    private final String tenant;
    private final String subject;

    InputRequiredBridge(PausedCalls paused, RequestMeta meta, String tenant, String subject) {
        this.paused = paused;
        this.meta = meta;
        this.tenant = tenant;
        this.subject = subject;
    }

    /**
     * @param below serves the request through the router stack, with the progress sink and question handler given
     * @param shape gives a complete answer this era's shape
     */
    JsonRpcMessage serve(JsonRpcMessage request, Consumer<JsonObject> progress,
                         BiFunction<Consumer<JsonObject>, ServerRequestHandler, JsonRpcMessage> below,
                         Function<JsonRpcMessage, JsonRpcMessage> shape) {
        if (request.params().containsKey("requestState") || request.params().containsKey("inputResponses")) {
            return resume(request, progress);
        }
        PausedCall call = paused.newCall(RequestState.Binding.of(tenant, subject, request));
        BackendAsks asks = new BackendAsks(meta, call, paused);
        call.progressTo(progress);
        try {
            paused.workers().execute(() -> run(call, request, asks, below, shape));
        } catch (RejectedExecutionException e) {
            return GatewayErrors.error(request.id(), GatewayErrors.INTERNAL_ERROR,
                    "The gateway is at capacity or shutting down; retry later", null);
        }
        return await(request, call, progress);
    }

    private static void run(PausedCall call, JsonRpcMessage request, BackendAsks asks,
                            BiFunction<Consumer<JsonObject>, ServerRequestHandler, JsonRpcMessage> below,
                            Function<JsonRpcMessage, JsonRpcMessage> shape) {
        if (!call.startOn(Thread.currentThread())) {
            call.complete(GatewayErrors.error(request.id(), GatewayErrors.REQUEST_CANCELLED, "Request cancelled", null));
            return;
        }
        try {
            JsonRpcMessage response = below.apply(call::progress, asks);
            call.complete(asks.answerInstead(request.id()).orElseGet(() -> shape.apply(response)));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "gateway failed serving " + request.method(), e);
            call.complete(GatewayErrors.error(request.id(), GatewayErrors.INTERNAL_ERROR, "Internal error", null));
        } finally {
            call.finished();
            // an interrupt meant for this call must not leak into the pool thread's next task
            Thread.interrupted();
        }
    }

    /** A retry: checks the state and the answers, hands the answers to the backend, and waits for what comes next. */
    private JsonRpcMessage resume(JsonRpcMessage request, Consumer<JsonObject> progress) {
        JsonObject params = request.params();
        if (!(params.get("requestState") instanceof JsonString sealed)) {
            return invalid(request, "params.requestState is required with params.inputResponses: send back the requestState "
                    + "of the input_required result you answer");
        }
        Optional<RequestState> opened = paused.open(sealed.getString());
        if (opened.isEmpty()) {
            return invalid(request, "params.requestState was not handed out by this gateway, or was changed");
        }
        RequestState state = opened.get();
        if (!state.binding().equals(RequestState.Binding.of(tenant, subject, request))) {
            return invalid(request, "params.requestState belongs to another request: retry the same method with the same "
                    + "name and arguments, as the same caller");
        }
        Optional<PausedCall> found = paused.find(state.call());
        if (state.expires().isBefore(paused.now()) || found.isEmpty()) {
            return invalid(request, "The call params.requestState would resume is over (its backend finished or gave up "
                    + "waiting for the answers, or another gateway instance holds it): send the request again without "
                    + "inputResponses and requestState");
        }
        PausedCall call = found.get();
        JsonValue responses = params.getOrDefault("inputResponses", JsonValue.EMPTY_JSON_OBJECT);
        if (!(responses instanceof JsonObject answers)) {
            return invalid(request, "params.inputResponses must be an object of answers by the keys of inputRequests");
        }
        Map<String, PausedCall.Question> open = call.open();
        for (var answer : answers.entrySet()) {
            if (!open.containsKey(answer.getKey())) {
                return invalid(request, "params.inputResponses." + answer.getKey() + " answers no open question; open: "
                        + new TreeSet<>(open.keySet()));
            }
            if (!(answer.getValue() instanceof JsonObject)) {
                return invalid(request, "params.inputResponses." + answer.getKey() + " must be the result object of "
                        + open.get(answer.getKey()).method());
            }
        }
        if (!call.takeRound(state.round())) {
            return invalid(request, "params.requestState was used already: each input_required result's state resumes one "
                    + "retry; send the state of the latest one");
        }
        answers.forEach((key, result) -> call.answer(key, (JsonObject) result));
        return await(request, call, progress);
    }

    private JsonRpcMessage await(JsonRpcMessage request, PausedCall call, Consumer<JsonObject> progress) {
        call.progressTo(progressOf(request, progress));
        try {
            PausedCall.Next next = call.next(paused.timeout());
            if (next.outcome() != null) {
                return withId(next.outcome(), request.id());
            }
            return inputRequired(request, call, next.open());
        } catch (InterruptedException e) {
            // the client went away: closing the exchange cancels the request, as for any other
            call.cancel();
            Thread.currentThread().interrupt();
            return GatewayErrors.error(request.id(), GatewayErrors.REQUEST_CANCELLED, "Request cancelled", null);
        } catch (TimeoutException e) {
            call.cancel();
            return GatewayErrors.error(request.id(), GatewayErrors.INTERNAL_ERROR, "The backend call neither finished nor "
                    + "asked anything within " + paused.timeout().toSeconds() + " s", null);
        } finally {
            // what the backend reports later belongs to the next retry's exchange, not to this closed one
            call.progressTo(null);
        }
    }

    /**
     * The exchange's progress sink, for the backend's notifications of the whole call: they carry the token of the
     * request that started it, and go out under the token of the request now waiting (none: not sent).
     */
    private static Consumer<JsonObject> progressOf(JsonRpcMessage request, Consumer<JsonObject> progress) {
        JsonValue token = request.params().get("_meta") instanceof JsonObject meta ? meta.get("progressToken") : null;
        if (progress == null || token == null) {
            return null;
        }
        return notification -> progress.accept(notification.get("progressToken") == null ? notification
                : JSON.createObjectBuilder(notification).add("progressToken", token).build());
    }

    private JsonRpcMessage inputRequired(JsonRpcMessage request, PausedCall call, Map<String, PausedCall.Question> open) {
        JsonObjectBuilder questions = JSON.createObjectBuilder();
        new TreeSet<>(open.keySet()).forEach(key -> questions.add(key, JSON.createObjectBuilder()
                .add("method", open.get(key).method()).add("params", open.get(key).params())));
        return JsonRpcMessage.result(request.id(), JSON.createObjectBuilder()
                .add(dev.switchboard.mcp.ModernProtocol.RESULT_TYPE, INPUT_REQUIRED)
                .add("inputRequests", questions).add("requestState", paused.stateOf(call)).build());
    }

    private static JsonRpcMessage withId(JsonRpcMessage response, JsonValue id) {
        return new JsonRpcMessage(JSON.createObjectBuilder(response.json()).add("id", id).build());
    }

    private static JsonRpcMessage invalid(JsonRpcMessage request, String message) {
        return GatewayErrors.error(request.id(), GatewayErrors.INVALID_PARAMS, "Invalid params: " + message, null);
    }
}
