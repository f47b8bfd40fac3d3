package dev.switchboard.mcp.transport;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import org.apache.hc.core5.http.Header;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * What a backend's {@code WWW-Authenticate: Bearer ...} challenge says of OAuth (RFC 6750, RFC 9728): where its
 * protected resource metadata is and which scopes it asks for. Read from an untrusted peer: only quoted parameters of
 * bounded length are taken, and a metadata address must be an http(s) URL.
 *
 * @param scope null when the challenge names none
 */
record BearerChallenge(String resourceMetadata, String scope) {

    private static final int MAX_VALUE_CHARS = 2048;
    private static final Pattern PARAMETER = Pattern.compile("(resource_metadata|scope)\\s*=\\s*\"([^\"]{1," + MAX_VALUE_CHARS + "})\"");

    /** The challenge among the headers that names protected resource metadata; empty when none does. */
    static Optional<BearerChallenge> of(Header[] headers) {
        for (Header header : headers) {
            String value = header.getValue();
            if (value == null || !value.regionMatches(true, 0, "Bearer", 0, 6)) {
                continue;
            }
            String metadata = null;
            String scope = null;
            Matcher m = PARAMETER.matcher(value);
            while (m.find()) {
                if (m.group(1).equals("resource_metadata")) {
                    metadata = m.group(2);
                } else {
                    scope = m.group(2);
                }
            }
            if (metadata != null && (metadata.startsWith("https://") || metadata.startsWith("http://"))) {
                return Optional.of(new BearerChallenge(metadata, scope));
            }
        }
        return Optional.empty();
    }

    JsonObject asData() {
        JsonObjectBuilder data = JSON.createObjectBuilder().add("resourceMetadata", resourceMetadata);
        if (scope != null) {
            data.add("scope", scope);
        }
        return data.build();
    }
}
