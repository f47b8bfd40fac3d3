package dev.switchboard.audit;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Field-level redaction before anything is serialised for a log line or an audit row (governance: audit and redaction): values under
 * secret-looking keys (tokens, API keys, cookies, passwords, ...) and under configured PII keys are replaced, and
 * string values that look like bearer tokens or JWTs are replaced wherever they stand.
 */
public final class Redactor {

    public static final String MASK = "[REDACTED]";

    private static final Pattern SECRET_KEY = Pattern.compile(
            "(?i).*(pass(word|wd)?|secret|token|api[_-]?key|apikey|authorization|cookie|credential|private[_-]?key|session[_-]?id).*");
    private static final Pattern SECRET_VALUE = Pattern.compile(
            "(?i)^(bearer\\s+\\S+|basic\\s+\\S+|eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\..*|sk-[A-Za-z0-9_-]{12,}.*)$");

    private final Set<String> piiKeys;

    /** @param piiKeys further keys (case-insensitive) whose values are personal data, e.g. {@code phone}, {@code id_card} */
    public Redactor(Set<String> piiKeys) {
        this.piiKeys = piiKeys.stream().map(k -> k.toLowerCase(Locale.ROOT)).collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    public JsonValue redact(JsonValue value) {
        return switch (value.getValueType()) {
            case OBJECT -> redactObject(value.asJsonObject());
            case ARRAY -> {
                JsonArrayBuilder array = JSON.createArrayBuilder();
                value.asJsonArray().forEach(item -> array.add(redact(item)));
                yield array.build();
            }
            case STRING -> SECRET_VALUE.matcher(((JsonString) value).getString()).matches() ? JSON.createValue(MASK) : value;
            default -> value;
        };
    }

    private JsonObject redactObject(JsonObject object) {
        JsonObjectBuilder out = JSON.createObjectBuilder();
        object.forEach((key, value) -> out.add(key, isSensitive(key) ? JSON.createValue(MASK) : redact(value)));
        return out.build();
    }

    private boolean isSensitive(String key) {
        return SECRET_KEY.matcher(key).matches() || piiKeys.contains(key.toLowerCase(Locale.ROOT));
    }
}
