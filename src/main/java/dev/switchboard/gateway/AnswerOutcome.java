package dev.switchboard.gateway;

/**
 * What became of a response a client posted to a request the gateway had sent it (sampling, elicitation, roots).
 * Only {@link #DELIVERED} is accepted; every other outcome is refused with the reason, so a client is never left
 * believing an answer arrived that nobody took.
 */
public enum AnswerOutcome {

    /** The waiting request took it. */
    DELIVERED(202, null),
    /** The id is not of the form the gateway gives its requests. */
    NOT_OURS(400, "is not the id of a request this gateway sent"),
    /** Of the gateway's form, but no request of this session waits for it. */
    NOT_WAITING(400, "names no request of this session that waits for an answer (already answered, timed out, ended"
            + " with its call, or not this session's)"),
    /** The member that sent the request (and ran the call that asked) has left the cluster. */
    MEMBER_GONE(400, "was sent by a gateway member that has left the cluster; the call that asked ended with it"),
    /** The member that sent the request did not take the answer in time. */
    UNREACHABLE(503, "was sent by a gateway member that did not take the answer in time; retry");

    private final int status;
    private final String refusal;

    AnswerOutcome(int status, String refusal) {
        this.status = status;
        this.refusal = refusal;
    }

    /** The HTTP status of the POST that carried the response. */
    public int status() {
        return status;
    }

    /** Why the response with this id is refused. */
    public String refusal(String id) {
        return "Response refused: id " + id + " " + refusal;
    }

    /** The machine-readable reason in the refusal's {@code error.data.reason}. */
    public String reason() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
