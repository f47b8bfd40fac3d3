package dev.switchboard.security;

import jakarta.annotation.security.DenyAll;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.Set;

/**
 * Who may call each resource method, answered in the API's error shape before the method runs: 401
 * {@code authentication_required} for a request without a token, 401 with the reason MicroProfile JWT refused the
 * one sent ({@link TokenRefusalReason}), 403 {@code forbidden} naming the roles for a
 * caller without any of the method's {@code @RolesAllowed} (the method's, else its class's), 403 for
 * {@code @DenyAll}. Closed by default: a method that names no rule at all still requires an authenticated caller, so
 * a forgotten annotation cannot open an endpoint under /api. Public endpoints say {@code @PermitAll}.
 * It runs before the container's own role check, which would answer in words of its own.
 */
@Provider
public class AuthenticationRequiredFeature implements DynamicFeature {

    @Override
    public void configure(ResourceInfo resource, FeatureContext context) {
        Method method = resource.getResourceMethod();
        if (method == null) {
            return;
        }
        AnnotatedElement rule = namesAccessRule(method) ? method : namesAccessRule(resource.getResourceClass())
                ? resource.getResourceClass() : null;
        if (rule != null && rule.isAnnotationPresent(PermitAll.class)) {
            return;
        }
        Set<String> roles = rule != null && rule.isAnnotationPresent(RolesAllowed.class)
                ? Set.of(rule.getAnnotation(RolesAllowed.class).value()) : null;
        boolean denied = rule != null && rule.isAnnotationPresent(DenyAll.class);
        context.register(new RequireCaller(roles, denied), Priorities.AUTHENTICATION - 1);
    }

    static boolean namesAccessRule(AnnotatedElement element) {
        return element != null && (element.isAnnotationPresent(RolesAllowed.class)
                || element.isAnnotationPresent(PermitAll.class) || element.isAnnotationPresent(DenyAll.class));
    }

    /** @param roles the roles of which the caller needs one; null for any authenticated caller */
    record RequireCaller(Set<String> roles, boolean denied) implements ContainerRequestFilter {
        @Override
        public void filter(ContainerRequestContext request) {
            var security = request.getSecurityContext();
            if (security.getUserPrincipal() == null) {
                // MicroProfile JWT lets a request whose token it refused on without a caller: say why
                request.abortWith(CDI.current().select(TokenRefusalReason.class).get()
                        .of(request.getHeaderString("Authorization")).response());
            } else if (denied) {
                request.abortWith(SecurityErrors.error(Response.Status.FORBIDDEN, SecurityErrors.PERMISSION,
                        "forbidden", "Nobody may call this endpoint"));
            } else if (roles != null && roles.stream().noneMatch(security::isUserInRole)) {
                request.abortWith(SecurityErrors.roleMissing(roles));
            }
        }
    }
}
