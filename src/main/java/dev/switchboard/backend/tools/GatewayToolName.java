package dev.switchboard.backend.tools;

import java.util.Optional;
import java.util.regex.Pattern;

/** A tool name as the gateway shows it: {@code {backend}__{tool}} (the gateway's tool naming). */
public record GatewayToolName(String backend, String tool) {

    public static final String SEPARATOR = "__";
    private static final Pattern VALID = Pattern.compile("^[A-Za-z0-9_.-]{1,128}$");

    public String exposed() {
        return backend + SEPARATOR + tool;
    }

    /** True when the exposed name is one every MCP client accepts. */
    public boolean isValid() {
        return VALID.matcher(exposed()).matches();
    }

    /** Splits at the first separator: backend names never contain it (see {@link BackendNames}). */
    public static Optional<GatewayToolName> parse(String exposed) {
        int at = exposed == null ? -1 : exposed.indexOf(SEPARATOR);
        if (at <= 0 || at + SEPARATOR.length() >= exposed.length()) {
            return Optional.empty();
        }
        return Optional.of(new GatewayToolName(exposed.substring(0, at), exposed.substring(at + SEPARATOR.length())));
    }
}
