package dev.switchboard.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.servlet.http.HttpServletRequest;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.net.URI;
import java.util.List;
import java.util.Optional;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * What Switchboard's MCP endpoints say of themselves as OAuth protected resources (RFC 9728, as the MCP
 * authorization specification asks): the resource's canonical URI, the authorization server whose tokens it accepts,
 * and that a token travels in the {@code Authorization} header. A 401 of an MCP endpoint points at this document
 * ({@link #challenge}), so an MCP client that meets one can find where to sign in.
 *
 * <p>The authorization server named is the token issuer ({@code jwt.issuer}) when it is an http(s) URL, that is an
 * external identity provider (Keycloak, Entra ID, Okta) whose tokens Switchboard validates; the built-in issuer is not
 * an OAuth authorization server (yet: users get its tokens from {@code POST /api/auth/login} or as API keys), so with
 * it the document names none and clients keep using a configured token.
 */
@ApplicationScoped
public class ProtectedResourceMetadata {

    /** Where the documents live (RFC 9728 section 3): the resource's path follows, {@code /mcp} by default. */
    public static final String WELL_KNOWN = "/.well-known/oauth-protected-resource";

    @Inject
    @ConfigProperty(name = "jwt.issuer", defaultValue = "switchboard")
    String issuer;

    @Inject
    @ConfigProperty(name = "switchboard.public-url")
    Optional<String> publicUrl;

    @Inject
    @ConfigProperty(name = "switchboard.oauth.scopes")
    Optional<List<String>> scopes;

    protected ProtectedResourceMetadata() {
        // for CDI
    }

    ProtectedResourceMetadata(String issuer, Optional<String> publicUrl, Optional<List<String>> scopes) {
        this.issuer = issuer;
        this.publicUrl = publicUrl;
        this.scopes = scopes;
    }

    /**
     * The document of the MCP endpoint at {@code resourcePath} ({@code /mcp} or {@code /mcp/servers/{name}}).
     */
    public JsonObject document(HttpServletRequest request, String resourcePath) {
        JsonObjectBuilder document = JSON.createObjectBuilder()
                .add("resource", base(request) + resourcePath)
                .add("resource_name", "Switchboard MCP gateway")
                .add("bearer_methods_supported", JSON.createArrayBuilder().add("header"));
        authorizationServer().ifPresent(server -> document.add("authorization_servers", JSON.createArrayBuilder().add(server)));
        scopes.filter(list -> !list.isEmpty()).ifPresent(list -> document.add("scopes_supported", JSON.createArrayBuilder(list)));
        return document.build();
    }

    /**
     * The {@code WWW-Authenticate} value of a 401 from the MCP endpoint at {@code resourcePath}: the scheme, the
     * realm, {@code resource_metadata} and the scopes, then {@code extra} parameters ({@code error=...}) if any.
     */
    public String challenge(HttpServletRequest request, String resourcePath, String extra) {
        StringBuilder challenge = new StringBuilder("Bearer realm=\"switchboard\", resource_metadata=\"")
                .append(base(request)).append(WELL_KNOWN).append(resourcePath).append('"');
        scopes.filter(list -> !list.isEmpty()).ifPresent(list -> challenge.append(", scope=\"").append(String.join(" ", list)).append('"'));
        if (extra != null && !extra.isBlank()) {
            challenge.append(", ").append(extra);
        }
        return challenge.toString();
    }

    /** The issuer as an authorization server, when it is one (an http(s) URL). */
    Optional<String> authorizationServer() {
        try {
            URI uri = URI.create(issuer);
            return ("https".equals(uri.getScheme()) || "http".equals(uri.getScheme())) && uri.getHost() != null
                    ? Optional.of(issuer) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * Where clients reach Switchboard: {@code switchboard.public-url} when set (behind a proxy or load balancer, the
     * address clients use), else the scheme, host and port the request came to.
     */
    private String base(HttpServletRequest request) {
        if (publicUrl.isPresent() && !publicUrl.get().isBlank()) {
            String url = publicUrl.get().strip();
            return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        }
        String scheme = request.getScheme();
        int port = request.getServerPort();
        boolean defaultPort = "http".equals(scheme) && port == 80 || "https".equals(scheme) && port == 443;
        return scheme + "://" + request.getServerName() + (defaultPort ? "" : ":" + port) + request.getContextPath();
    }
}
