package dev.switchboard.platform;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Anything unexpected: log it with an incident id, tell the caller only the id (never internals). */
@Provider
public class UnexpectedExceptionMapper implements ExceptionMapper<RuntimeException> {

    private static final Logger LOG = Logger.getLogger(UnexpectedExceptionMapper.class.getName());

    @Override
    public Response toResponse(RuntimeException e) {
        String incident = UUID.randomUUID().toString();
        LOG.log(Level.SEVERE, "Unhandled error, incident " + incident, e);
        return ApiError.response(Response.Status.INTERNAL_SERVER_ERROR,
                "Internal error (incident " + incident + ")", "server_error", "internal_error");
    }
}
