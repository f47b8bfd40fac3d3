package dev.switchboard.policy;

import dev.switchboard.platform.egress.AllowedNetwork;
import dev.switchboard.platform.ApiException;
import dev.switchboard.platform.BodyFields;
import dev.switchboard.platform.json.WholeNumbers;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * A policy as the API reads and writes it:
 * <pre>{"tools": ["files__*", "everything__echo"], "resourceBackends": ["everything"],
 *  "rateLimit": {"requests": 10, "per": "second", "burst": 20, "perSubject": false},
 *  "toolRules": [{"tool": "everything__echo", "retryAllowed": true, "risk": "low"}],
 *  "allowedNetworks": ["10.20.0.0/16", "mcp.internal.example"]}</pre>
 * Absent or null {@code tools}/{@code resourceBackends}/{@code rateLimit} mean no restriction; absent or null
 * {@code allowedNetworks} means no internal destination for users' servers. Every mistake is a 400 with a stable
 * code naming what is wrong.
 */
public final class PolicyJson {

    private static final Set<String> FIELDS = Set.of("tools", "resourceBackends", "rateLimit", "toolRules", "allowedNetworks");
    private static final Set<String> RATE_FIELDS = Set.of("requests", "per", "burst", "perSubject");
    private static final Set<String> RULE_FIELDS = Set.of("tool", "retryAllowed", "risk");
    private static final Pattern BACKEND = Pattern.compile("^[A-Za-z0-9_.-]{1,128}$");
    /** Large enough for any real allowlist, small enough that a policy stays a cheap in-memory snapshot. */
    static final int MAX_ENTRIES = 1000;
    static final int MAX_REQUESTS = 1_000_000;

    private PolicyJson() {
    }

    public static TenantPolicy read(JsonObject json) {
        json = BodyFields.of(json, FIELDS).json();
        List<ToolPattern> tools = isNull(json, "tools") ? null
                : strings(json, "tools").stream().map(PolicyJson::pattern).toList();
        Set<String> backends = null;
        if (!isNull(json, "resourceBackends")) {
            backends = new LinkedHashSet<>();
            for (String name : strings(json, "resourceBackends")) {
                if (!BACKEND.matcher(name).matches()) {
                    throw ApiException.badRequest("invalid_backend_name", "resourceBackends: '" + name
                            + "' is not a gateway backend name (1-128 letters, digits, '.', '_' or '-')");
                }
                backends.add(name);
            }
        }
        RateLimit rate = isNull(json, "rateLimit") ? null : rateLimit(json.get("rateLimit"));
        List<ToolRule> rules = new ArrayList<>();
        if (!isNull(json, "toolRules")) {
            if (!(json.get("toolRules") instanceof JsonArray array)) {
                throw BodyFields.wrongType("toolRules", "null or an array of rules", json.get("toolRules"));
            }
            if (array.size() > MAX_ENTRIES) {
                throw ApiException.badRequest("invalid_tool_rule", "toolRules must be an array of at most "
                        + MAX_ENTRIES + " objects");
            }
            for (JsonValue value : array) {
                rules.add(rule(value));
            }
        }
        List<AllowedNetwork> networks = isNull(json, "allowedNetworks") ? List.of()
                : strings(json, "allowedNetworks").stream().map(PolicyJson::network).toList();
        return new TenantPolicy(tools, backends, rate, rules, networks);
    }

    public static JsonObject write(TenantPolicy policy) {
        JsonObjectBuilder json = JSON.createObjectBuilder();
        if (policy.tools() == null) {
            json.addNull("tools");
        } else {
            JsonArrayBuilder tools = JSON.createArrayBuilder();
            policy.tools().forEach(p -> tools.add(p.text()));
            json.add("tools", tools);
        }
        if (policy.resourceBackends() == null) {
            json.addNull("resourceBackends");
        } else {
            JsonArrayBuilder backends = JSON.createArrayBuilder();
            policy.resourceBackends().stream().sorted().forEach(backends::add);
            json.add("resourceBackends", backends);
        }
        RateLimit rate = policy.rateLimit();
        if (rate == null) {
            json.addNull("rateLimit");
        } else {
            json.add("rateLimit", JSON.createObjectBuilder().add("requests", rate.requests()).add("per", rate.per())
                    .add("burst", rate.burst()).add("perSubject", rate.perSubject()));
        }
        JsonArrayBuilder rules = JSON.createArrayBuilder();
        policy.toolRules().forEach(r -> rules.add(JSON.createObjectBuilder().add("tool", r.tool().text())
                .add("retryAllowed", r.retryAllowed()).add("risk", r.risk().json())));
        JsonArrayBuilder networks = JSON.createArrayBuilder();
        policy.allowedNetworks().forEach(n -> networks.add(n.text()));
        return json.add("toolRules", rules).add("allowedNetworks", networks).build();
    }

    private static AllowedNetwork network(String text) {
        return AllowedNetwork.parse(text).orElseThrow(() -> ApiException.badRequest("invalid_allowed_networks",
                "allowedNetworks: '" + text + "' is neither a network (10.0.0.0/8, fd00::/8), an address in plain "
                        + "notation (10.1.2.3, ::1) nor a host name"));
    }

    private static ToolPattern pattern(String text) {
        return ToolPattern.parse(text).orElseThrow(() -> ApiException.badRequest("invalid_tool_pattern",
                "'" + text + "' is not a tool pattern: use backend__tool, backend__* or *"));
    }

    private static RateLimit rateLimit(JsonValue value) {
        if (!(value instanceof JsonObject rate)) {
            throw BodyFields.wrongType("rateLimit", "null or an object", value);
        }
        unknownFields(rate, RATE_FIELDS, "rateLimit");
        int requests = positive(rate, "requests", true);
        String per = rate.get("per") instanceof JsonString s ? s.getString() : null;
        Duration period = switch (per == null ? "" : per) {
            case "second" -> Duration.ofSeconds(1);
            case "minute" -> Duration.ofMinutes(1);
            default -> throw ApiException.badRequest("invalid_rate_limit", "rateLimit.per must be \"second\" or \"minute\"");
        };
        int burst = rate.containsKey("burst") ? positive(rate, "burst", true) : requests;
        JsonValue perSubject = rate.get("perSubject");
        if (perSubject != null && perSubject != JsonValue.TRUE && perSubject != JsonValue.FALSE) {
            throw ApiException.badRequest("invalid_rate_limit", "rateLimit.perSubject must be true or false");
        }
        return new RateLimit(requests, period, burst, perSubject == JsonValue.TRUE);
    }

    private static int positive(JsonObject json, String field, boolean required) {
        long value = WholeNumbers.asLong(json.get(field)).orElse(0);
        if (value >= 1 && value <= MAX_REQUESTS) {
            return (int) value;
        }
        throw ApiException.badRequest("invalid_rate_limit", "rateLimit." + field + " must be a whole number from 1 to "
                + MAX_REQUESTS + (required ? "" : " when given"));
    }

    private static ToolRule rule(JsonValue value) {
        if (!(value instanceof JsonObject rule)) {
            throw ApiException.badRequest("invalid_tool_rule", "each of toolRules must be an object");
        }
        unknownFields(rule, RULE_FIELDS, "toolRules[]");
        String tool = rule.get("tool") instanceof JsonString s ? s.getString() : null;
        if (tool == null) {
            throw ApiException.badRequest("invalid_tool_rule", "toolRules[].tool is required (backend__tool, backend__* or *)");
        }
        JsonValue retry = rule.get("retryAllowed");
        if (retry != null && retry != JsonValue.TRUE && retry != JsonValue.FALSE) {
            throw ApiException.badRequest("invalid_tool_rule", "toolRules[].retryAllowed must be true or false");
        }
        String riskText = rule.get("risk") instanceof JsonString s ? s.getString() : rule.containsKey("risk") ? "" : "high";
        Risk risk = Risk.parse(riskText).orElseThrow(() -> ApiException.badRequest("invalid_tool_rule",
                "toolRules[].risk must be \"low\", \"medium\" or \"high\""));
        return new ToolRule(pattern(tool), retry == JsonValue.TRUE, risk);
    }

    private static List<String> strings(JsonObject json, String field) {
        if (!(json.get(field) instanceof JsonArray array)) {
            throw BodyFields.wrongType(field, "null or an array of strings", json.get(field));
        }
        if (array.size() > MAX_ENTRIES) {
            throw ApiException.badRequest("invalid_" + snake(field), field + " must be null or an array of at most "
                    + MAX_ENTRIES + " strings");
        }
        List<String> values = new ArrayList<>();
        for (JsonValue value : array) {
            if (!(value instanceof JsonString s)) {
                throw ApiException.badRequest("invalid_" + snake(field), field + " must hold strings only");
            }
            values.add(s.getString());
        }
        return values;
    }

    private static boolean isNull(JsonObject json, String field) {
        return !json.containsKey(field) || json.isNull(field);
    }

    private static void unknownFields(JsonObject json, Set<String> known, String where) {
        for (String key : json.keySet()) {
            if (!known.contains(key)) {
                throw ApiException.badRequest("unknown_field", where + ": unknown field '" + key + "'; known: "
                        + String.join(", ", known.stream().sorted().toList()));
            }
        }
    }

    private static String snake(String field) {
        return field.replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
    }
}
