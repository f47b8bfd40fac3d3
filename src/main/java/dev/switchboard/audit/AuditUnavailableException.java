package dev.switchboard.audit;

import dev.switchboard.platform.ApiException;
import jakarta.ws.rs.core.Response;

/**
 * An event could not be made durable in time (the audit database does not answer, or the writer is that far behind):
 * the caller must not release the answer it audits. On the REST API it is a 503 {@code audit_unavailable}; the gateway
 * and the chat loop answer in their own error shapes.
 */
public class AuditUnavailableException extends ApiException {

    public static final String CODE = "audit_unavailable";

    public AuditUnavailableException(String message) {
        super(Response.Status.SERVICE_UNAVAILABLE, "server_error", CODE, message);
    }
}
