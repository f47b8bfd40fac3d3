package dev.switchboard.llm;

/** The provider could not give an answer; the kind says why, so the API can say what to fix. */
public class LlmException extends Exception {

    public enum Kind {
        /** Nothing listens at the base URL, or the host does not resolve. */
        UNAVAILABLE,
        /** No answer (blocking) or no next chunk (streaming) within the read timeout. */
        TIMEOUT,
        /** The provider refused the request (HTTP 4xx): wrong model, bad key, bad input. */
        REJECTED,
        /** The provider failed (HTTP 5xx). */
        FAILED,
        /** The provider answered something that is not an OpenAI-compatible completion. */
        MALFORMED
    }

    private final Kind kind;
    private final int httpStatus;

    public LlmException(Kind kind, String message) {
        this(kind, message, 0, null);
    }

    public LlmException(Kind kind, String message, int httpStatus, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.httpStatus = httpStatus;
    }

    public Kind kind() {
        return kind;
    }

    /** The provider's HTTP status for REJECTED and FAILED, else 0. */
    public int httpStatus() {
        return httpStatus;
    }
}
