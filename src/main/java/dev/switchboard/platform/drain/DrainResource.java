package dev.switchboard.platform.drain;

import dev.switchboard.platform.ApiError;
import jakarta.annotation.security.PermitAll;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * {@code POST /api/drain}: drains this member before it is stopped (a Kubernetes {@code preStop} hook, or an operator
 * before {@code server stop}), answering once the admitted calls have finished or the drain timeout ran out. It needs
 * the header {@code X-Switchboard-Drain-Token} equal to {@code switchboard.drain.token}; without that setting draining
 * by request is off, so no caller can take a member out of service.
 */
@Path("drain")
@RequestScoped
public class DrainResource {

    static final String HEADER = "X-Switchboard-Drain-Token";

    @Inject
    Drain drain;

    @Inject
    @ConfigProperty(name = "switchboard.drain.token")
    Optional<String> token;

    /** No bearer token: the drain token is its own check (a preStop hook has no user to sign in as). */
    @POST
    @PermitAll
    @Produces(MediaType.APPLICATION_JSON)
    public Response drain(@HeaderParam(HEADER) String presented) {
        Optional<Refusal> refusal = refusal(token, presented);
        if (refusal.isPresent()) {
            Refusal r = refusal.get();
            return ApiError.response(Response.Status.fromStatusCode(r.status()), r.message(), r.type(), r.code());
        }
        long started = System.nanoTime();
        Drained outcome = drain.finish("POST /api/drain");
        return Response.ok(JSON.createObjectBuilder().add("drained", outcome.idle())
                .add("stillRunning", outcome.stillRunning())
                .add("waitedMillis", (System.nanoTime() - started) / 1_000_000).build()).build();
    }

    /** Why a request to drain is refused, if it is: the setting is off, or the token presented is not it. */
    static Optional<Refusal> refusal(Optional<String> token, String presented) {
        Optional<String> expected = token.filter(t -> !t.isBlank());
        if (expected.isEmpty()) {
            return Optional.of(new Refusal(404, "Draining by request is off: set SWITCHBOARD_DRAIN_TOKEN "
                    + "(switchboard.drain.token) to allow POST /api/drain", "not_found_error", "drain_off"));
        }
        if (presented == null || !MessageDigest.isEqual(expected.get().getBytes(StandardCharsets.UTF_8),
                presented.getBytes(StandardCharsets.UTF_8))) {
            return Optional.of(new Refusal(403, HEADER + " is missing or does not match SWITCHBOARD_DRAIN_TOKEN",
                    "permission_error", "drain_token_mismatch"));
        }
        return Optional.empty();
    }

    record Refusal(int status, String message, String type, String code) {
    }
}
