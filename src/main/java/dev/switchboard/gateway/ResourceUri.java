package dev.switchboard.gateway;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A backend's resource URI (or URI template) as the aggregated endpoint shows it:
 * {@code switchboard://{backend}/{original}}. The original is kept verbatim after the backend, so a template's
 * {@code {variables}} still expand on the client and the result splits back into backend and original URI.
 */
public record ResourceUri(String backend, String uri) {

    public static final String SCHEME = "switchboard://";
    private static final Pattern BACKEND = Pattern.compile("[A-Za-z0-9_.-]+");

    public String exposed() {
        return SCHEME + backend + "/" + uri;
    }

    /** Empty when the text is not a URI this gateway issued. */
    public static Optional<ResourceUri> parse(String exposed) {
        if (exposed == null || !exposed.startsWith(SCHEME)) {
            return Optional.empty();
        }
        String rest = exposed.substring(SCHEME.length());
        int slash = rest.indexOf('/');
        if (slash <= 0 || slash + 1 >= rest.length() || !BACKEND.matcher(rest.substring(0, slash)).matches()) {
            return Optional.empty();
        }
        return Optional.of(new ResourceUri(rest.substring(0, slash), rest.substring(slash + 1)));
    }
}
