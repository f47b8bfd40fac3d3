package dev.switchboard.platform;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import org.eclipse.microprofile.auth.LoginConfig;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;

/** The REST API under {@code /api}, protected by MicroProfile JWT (tokens or API keys as bearer). */
@ApplicationPath("/api")
@LoginConfig(authMethod = "MP-JWT")
@OpenAPIDefinition(info = @Info(title = "Switchboard API", version = "0.1.0",
        description = "MCP server registry, assistants, authentication"),
        security = @SecurityRequirement(name = "bearer"))
@SecurityScheme(securitySchemeName = "bearer", type = SecuritySchemeType.HTTP, scheme = "bearer", bearerFormat = "JWT")
public class SwitchboardApplication extends Application {
}
