package dev.switchboard.gateway;

import dev.switchboard.audit.CanonicalJson;
import dev.switchboard.backend.tools.GatewayToolName;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.policy.CallAdmission;
import dev.switchboard.policy.IdempotentResults;
import dev.switchboard.policy.PolicyMetrics;
import dev.switchboard.policy.RateLimiter;
import dev.switchboard.policy.RetrySettings;
import dev.switchboard.policy.TenantPolicy;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Holds one client-facing endpoint's requests to the caller's tenant policy (allowlists, rate limits, retries) before the router
 * it wraps sees them:
 * <ul>
 *     <li>tools outside the allowlist are left out of {@code tools/list} and refused on {@code tools/call}
 *     ({@code -32020}); prompts and resources of backends the tenant may not use likewise;</li>
 *     <li>{@code tools/call}, {@code resources/read} and {@code prompts/get} take a permit from the tenant's (or
 *     subject's) token bucket first; without one the answer is {@code -32010} with a retry-after hint and the
 *     backend is never called;</li>
 *     <li>a {@code tools/call} with an idempotency key returns the key's first completed result again (a call with the
 *     key arriving while the first runs waits for it, see {@link IdempotentResults}); it is retried
 *     after a transport failure or timeout only when the tenant's rules mark the tool {@code retryAllowed} and low
 *     risk and the request carries that key.</li>
 * </ul>
 * For a passthrough endpoint the backend is fixed and its bare tool names are matched as {@code backend__tool}.
 */
public final class PolicyRouter implements McpRouter {

    /** Where a request carries its idempotency key; the HTTP endpoint copies {@code x-idempotency-key} here. */
    public static final String IDEMPOTENCY_META = "idempotencyKey";
    /** The HTTP header of the governance retry rules that carries the key. */
    public static final String IDEMPOTENCY_HEADER = "x-idempotency-key";
    private static final Set<String> LIMITED = Set.of("tools/call", "resources/read", "prompts/get");
    /** Pages a filtered list may skip to avoid answering an empty page that still has a next cursor. */
    private static final int MAX_SKIPPED_PAGES = 20;
    private static final int MAX_KEY_LENGTH = 255;

    /** The services the layer uses, shared by every router. */
    public record Services(RateLimiter limiter, PolicyMetrics metrics, RetrySettings retries, IdempotentResults results) {
    }

    private final McpRouter delegate;
    private final ClientContext caller;
    private final TenantPolicy policy;
    private final String passthroughBackend;
    private final Services services;
    private final CallAdmission admission;

    /** @param passthroughBackend the one backend of a passthrough endpoint; null for the aggregated one */
    public PolicyRouter(McpRouter delegate, ClientContext caller, TenantPolicy policy, String passthroughBackend,
                        Services services) {
        this.delegate = delegate;
        this.caller = caller;
        this.policy = policy;
        this.passthroughBackend = passthroughBackend;
        this.services = services;
        this.admission = new CallAdmission(services.limiter(), services.metrics());
    }

    /** The request with the header's key in {@code params._meta}; a key already in {@code _meta} is kept. */
    public static JsonRpcMessage withIdempotencyKey(JsonRpcMessage request, String header) {
        if (header == null || !"tools/call".equals(request.method())) {
            return request;
        }
        JsonObject meta = request.params().get("_meta") instanceof JsonObject m ? m : JsonValue.EMPTY_JSON_OBJECT;
        if (meta.containsKey(IDEMPOTENCY_META)) {
            return request;
        }
        return withParams(request, JSON.createObjectBuilder(request.params())
                .add("_meta", JSON.createObjectBuilder(meta).add(IDEMPOTENCY_META, header)).build());
    }

    @Override
    public JsonObject initializeResult(String protocolVersion) {
        return delegate.initializeResult(protocolVersion);
    }

    @Override
    public JsonRpcMessage handle(JsonRpcMessage request, Consumer<JsonObject> progress, ServerRequestHandler clientRequests) {
        JsonObject params = request.params();
        Optional<JsonRpcMessage> refused = switch (request.method()) {
            case "tools/call" -> toolRefused(request, text(params, "name"));
            case "prompts/get" -> contentRefused(request, "prompt", text(params, "name"), backendOfName(text(params, "name")));
            case "resources/read", "resources/subscribe" ->
                    contentRefused(request, "resource", text(params, "uri"), backendOfUri(text(params, "uri")));
            case "completion/complete" -> completionRefused(request);
            default -> Optional.empty();
        };
        if (refused.isPresent()) {
            return refused.get();
        }
        if (LIMITED.contains(request.method())) {
            Optional<JsonRpcMessage> limited = rateLimited(request);
            if (limited.isPresent()) {
                return limited.get();
            }
        }
        return switch (request.method()) {
            case "tools/list" -> filtered(request, "tools", tool -> policy.allowsTool(exposedTool(text(tool, "name"))));
            case "prompts/list" -> filtered(request, "prompts", p -> policy.allowsContentOf(backendOfName(text(p, "name"))));
            case "resources/list" -> filtered(request, "resources", r -> policy.allowsContentOf(backendOfUri(text(r, "uri"))));
            case "resources/templates/list" -> filtered(request, "resourceTemplates",
                    t -> policy.allowsContentOf(backendOfUri(text(t, "uriTemplate"))));
            case "tools/call" -> callTool(request, progress, clientRequests);
            default -> delegate.handle(request, progress, clientRequests);
        };
    }

    private Optional<JsonRpcMessage> toolRefused(JsonRpcMessage request, String name) {
        String exposed = exposedTool(name);
        if (name == null) {
            return Optional.empty();
        }
        return admission.tool(policy, caller.tenantId(), exposed).map(refusal -> refused(request, refusal, "tool", exposed));
    }

    private Optional<JsonRpcMessage> contentRefused(JsonRpcMessage request, String kind, String target, String backend) {
        if (target == null) {
            return Optional.empty();
        }
        return admission.content(policy, caller.tenantId(), kind, backend).map(refusal -> refused(request, refusal, kind, target));
    }

    private Optional<JsonRpcMessage> completionRefused(JsonRpcMessage request) {
        if (!(request.params().get("ref") instanceof JsonObject ref)) {
            return Optional.empty();
        }
        return "ref/prompt".equals(text(ref, "type"))
                ? contentRefused(request, "prompt", text(ref, "name"), backendOfName(text(ref, "name")))
                : contentRefused(request, "resource", text(ref, "uri"), backendOfUri(text(ref, "uri")));
    }

    private JsonRpcMessage refused(JsonRpcMessage request, CallAdmission.Refusal refusal, String kind, String target) {
        return GatewayErrors.error(request.id(), GatewayErrors.POLICY_DENIED, refusal.message(),
                JSON.createObjectBuilder().add("decision", refusal.decision()).add("tenant", caller.tenantId())
                        .add(kind, target).build());
    }

    private Optional<JsonRpcMessage> rateLimited(JsonRpcMessage request) {
        return admission.permit(policy, caller.tenantId(), caller.subject()).map(refusal ->
                GatewayErrors.error(request.id(), GatewayErrors.RATE_LIMITED, refusal.message(),
                        JSON.createObjectBuilder().add("decision", refusal.decision()).add("tenant", caller.tenantId())
                                .add("retryAfterMs", refusal.retryAfterMillis())
                                .add("retryAfterSeconds", refusal.retryAfterSeconds()).build()));
    }

    /** The list without what the policy hides; pages emptied by it are skipped so a page is never empty mid-list. */
    private JsonRpcMessage filtered(JsonRpcMessage request, String field, Predicate<JsonObject> visible) {
        JsonRpcMessage response = delegate.handle(request, null, null);
        for (int skipped = 0; ; skipped++) {
            if (!(response.json().get("result") instanceof JsonObject result) || !(result.get(field) instanceof JsonArray items)) {
                return response;
            }
            var kept = JSON.createArrayBuilder();
            int count = 0;
            for (JsonValue item : items) {
                if (item instanceof JsonObject object && visible.test(object)) {
                    kept.add(object);
                    count++;
                }
            }
            JsonObject page = JSON.createObjectBuilder(result).add(field, kept).build();
            String next = text(result, "nextCursor");
            if (count > 0 || next == null || skipped >= MAX_SKIPPED_PAGES) {
                return JsonRpcMessage.result(request.id(), page);
            }
            JsonObject nextParams = JSON.createObjectBuilder(request.params()).add("cursor", next).build();
            response = delegate.handle(withParams(request, nextParams), null, null);
        }
    }

    private JsonRpcMessage callTool(JsonRpcMessage request, Consumer<JsonObject> progress, ServerRequestHandler clientRequests) {
        JsonObject params = request.params();
        JsonValue keyValue = params.get("_meta") instanceof JsonObject meta ? meta.get(IDEMPOTENCY_META) : null;
        if (keyValue == null) {
            return delegate.handle(request, progress, clientRequests);
        }
        if (!(keyValue instanceof JsonString keyText) || keyText.getString().isBlank()
                || keyText.getString().length() > MAX_KEY_LENGTH) {
            return GatewayErrors.error(request.id(), GatewayErrors.INVALID_PARAMS, "Invalid params: _meta."
                    + IDEMPOTENCY_META + " (or the x-idempotency-key header) must be 1-" + MAX_KEY_LENGTH + " characters", null);
        }
        String exposed = exposedTool(text(params, "name"));
        String inputHash = sha256(CanonicalJson.of(params.get("arguments") == null ? JsonValue.EMPTY_JSON_OBJECT : params.get("arguments")));
        if (!services.results().enabled()) {
            return withRetries(request, progress, clientRequests, policy.ruleFor(exposed).permitsRetry());
        }
        String scoped = IdempotentResults.scope(caller.tenantId(), caller.subject(), keyText.getString());
        IdempotentResults.Claim claim = services.results().claim(scoped, exposed, inputHash);
        return switch (claim.verdict()) {
            case ANSWER -> JsonRpcMessage.result(request.id(), claim.result());
            case CONFLICT -> GatewayErrors.error(request.id(), GatewayErrors.INVALID_PARAMS, "Invalid params: idempotency key '"
                    + keyText.getString() + "' was already used for a different call (tool or arguments differ)", null);
            case STILL_RUNNING -> GatewayErrors.error(request.id(), GatewayErrors.BACKEND_TIMEOUT, "backend_timeout: the call"
                    + " with idempotency key '" + keyText.getString() + "' made first is still running; ask again later", null);
            case RUN -> runClaimed(request, progress, clientRequests, exposed, claim.ticket());
        };
    }

    /** The call holding its key's claim: a result completes the claim, anything else frees the key for the next try. */
    private JsonRpcMessage runClaimed(JsonRpcMessage request, Consumer<JsonObject> progress,
                                      ServerRequestHandler clientRequests, String exposed, IdempotentResults.Ticket ticket) {
        JsonRpcMessage response = null;
        try {
            response = withRetries(request, progress, clientRequests, policy.ruleFor(exposed).permitsRetry());
            return response;
        } finally {
            if (response != null && response.json().get("result") instanceof JsonObject result) {
                services.results().complete(ticket, result);
            } else {
                services.results().abandon(ticket);
            }
        }
    }

    /** Only a transport failure or timeout is retried, never a tool's own error result or a backend's JSON-RPC error. */
    private JsonRpcMessage withRetries(JsonRpcMessage request, Consumer<JsonObject> progress,
                                       ServerRequestHandler clientRequests, boolean retryPermitted) {
        JsonRpcMessage response = delegate.handle(request, progress, clientRequests);
        for (int attempt = 2; retryPermitted && transientFailure(response) && attempt <= services.retries().maxAttempts(); attempt++) {
            if (!pause(services.retries().backoffBefore(attempt))) {
                break;
            }
            services.metrics().retried(caller.tenantId());
            response = delegate.handle(request, progress, clientRequests);
        }
        return response;
    }

    private static boolean transientFailure(JsonRpcMessage response) {
        if (!(response.json().get("error") instanceof JsonObject error)) {
            return false;
        }
        int code = error.getInt("code", 0);
        return code == GatewayErrors.BACKEND_UNAVAILABLE || code == GatewayErrors.BACKEND_TIMEOUT;
    }

    /** False when the request was cancelled meanwhile (its worker interrupted): then no further attempt is made. */
    private static boolean pause(Duration wait) {
        try {
            Thread.sleep(wait.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private String exposedTool(String name) {
        return passthroughBackend == null || name == null ? name : passthroughBackend + GatewayToolName.SEPARATOR + name;
    }

    private String backendOfName(String name) {
        return passthroughBackend != null ? passthroughBackend : GatewayToolName.parse(name).map(GatewayToolName::backend).orElse(null);
    }

    private String backendOfUri(String uri) {
        return passthroughBackend != null ? passthroughBackend : ResourceUri.parse(uri).map(ResourceUri::backend).orElse(null);
    }

    private static JsonRpcMessage withParams(JsonRpcMessage request, JsonObject params) {
        return new JsonRpcMessage(JSON.createObjectBuilder(request.json()).add("params", params).build());
    }

    private static String text(JsonObject json, String key) {
        return json != null && json.get(key) instanceof JsonString s ? s.getString() : null;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
