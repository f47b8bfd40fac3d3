package dev.switchboard.gateway.http;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;

/**
 * DNS-rebinding protection: a browser page may reach the endpoint only from an allowed origin. Requests without an
 * {@code Origin} header (non-browser clients) pass; {@code Origin: null} (sandboxed pages) does not. An allowed entry
 * without a port matches every port of its scheme and host; {@code *} allows every origin.
 */
public final class OriginPolicy {

    private record Origin(String scheme, String host, int port) {

        static Origin parse(String text) {
            try {
                URI uri = new URI(text.strip());
                if (uri.getScheme() == null || uri.getHost() == null) {
                    return null;
                }
                return new Origin(uri.getScheme().toLowerCase(Locale.ROOT), uri.getHost().toLowerCase(Locale.ROOT), uri.getPort());
            } catch (URISyntaxException e) {
                return null;
            }
        }

        boolean admits(Origin other) {
            return scheme.equals(other.scheme) && host.equals(other.host) && (port == -1 || port == other.effectivePort());
        }

        int effectivePort() {
            return port != -1 ? port : "https".equals(scheme) ? 443 : 80;
        }
    }

    private final List<Origin> allowed;
    private final boolean any;

    public OriginPolicy(List<String> allowedOrigins) {
        this.any = allowedOrigins.stream().anyMatch(o -> o.strip().equals("*"));
        this.allowed = allowedOrigins.stream().map(Origin::parse).filter(o -> o != null).toList();
    }

    public boolean allows(String originHeader) {
        if (originHeader == null) {
            return true;
        }
        if (any) {
            return true;
        }
        Origin origin = Origin.parse(originHeader);
        return origin != null && allowed.stream().anyMatch(a -> a.admits(origin));
    }
}
