package dev.switchboard.security;

import jakarta.annotation.security.DenyAll;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;

/**
 * Closed by default: a resource method that names no access rule (@RolesAllowed, @PermitAll, @DenyAll on
 * the method or its class) still requires an authenticated caller, so a forgotten annotation cannot open
 * an endpoint under /api. Public endpoints say @PermitAll.
 */
@Provider
public class AuthenticationRequiredFeature implements DynamicFeature {

    @Override
    public void configure(ResourceInfo resource, FeatureContext context) {
        Method method = resource.getResourceMethod();
        if (method == null || namesAccessRule(method) || namesAccessRule(resource.getResourceClass())) {
            return;
        }
        context.register(new RequireAuthentication(), Priorities.AUTHENTICATION);
    }

    static boolean namesAccessRule(AnnotatedElement element) {
        return element != null && (element.isAnnotationPresent(RolesAllowed.class)
                || element.isAnnotationPresent(PermitAll.class) || element.isAnnotationPresent(DenyAll.class));
    }

    static final class RequireAuthentication implements ContainerRequestFilter {
        @Override
        public void filter(ContainerRequestContext request) {
            if (request.getSecurityContext().getUserPrincipal() == null) {
                request.abortWith(SecurityErrors.authenticationRequired());
            }
        }
    }
}
