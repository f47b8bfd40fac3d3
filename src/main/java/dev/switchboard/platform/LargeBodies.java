package dev.switchboard.platform;

/**
 * Implemented by a room whose endpoints take bodies larger than the API's limit (file uploads):
 * {@link RequestBodyLimitFilter} asks every such bean before it applies {@code switchboard.api.max-body-bytes}, so
 * the larger limit holds for those endpoints only and an oversized upload is still refused before it is read.
 */
public interface LargeBodies {

    /**
     * The limit for a request, or null when the API's own limit applies.
     *
     * @param method the HTTP method
     * @param path   the path below the application's context root, e.g. {@code /api/knowledge/documents}
     */
    BodyLimit limitFor(String method, String path);

    /**
     * A limit larger than the API's, and the error that refuses a body above it (413, in the API's error shape).
     *
     * @param maxBytes most bytes the body may have
     * @param code     the error's stable code
     * @param message  what the caller reads: what the limit is and how to change it
     */
    record BodyLimit(long maxBytes, String code, String message) {
    }
}
