package dev.switchboard.knowledge;

import dev.switchboard.platform.ApiException;
import jakarta.ws.rs.core.Response;

/**
 * Why a document was refused, each with its own status and stable code: what is wrong with the request (400, 409,
 * 413, 415) apart from a file that was read but yields no usable text (422 Unprocessable Content), and a server too
 * busy to read it now (503).
 */
final class DocumentErrors {

    private static final String TYPE = "invalid_request_error";

    /** 422, which {@link Response.Status} lacks. */
    private static final Response.StatusType UNPROCESSABLE = new Response.StatusType() {
        @Override
        public int getStatusCode() {
            return 422;
        }

        @Override
        public Response.Status.Family getFamily() {
            return Response.Status.Family.CLIENT_ERROR;
        }

        @Override
        public String getReasonPhrase() {
            return "Unprocessable Content";
        }
    };

    private DocumentErrors() {
    }

    static ApiException empty(String fileName) {
        return ApiException.badRequest("empty_file", "'" + fileName + "' is empty: upload a file with content");
    }

    static ApiException tooLarge(long maxBytes) {
        return new ApiException(Response.Status.REQUEST_ENTITY_TOO_LARGE, TYPE, "file_too_large", "Knowledge documents "
                + "may be at most " + maxBytes + " bytes (switchboard.knowledge.documents.max-bytes); split the document "
                + "or ask the operator to raise the limit");
    }

    static ApiException unsupported(String fileName, String mediaType) {
        return new ApiException(Response.Status.UNSUPPORTED_MEDIA_TYPE, TYPE, "unsupported_file_type", "'" + fileName
                + "' is " + mediaType + ", which the knowledge base cannot read; it reads " + TextExtractor.ACCEPTED);
    }

    static ApiException textTooLong(String fileName, int maxTextChars) {
        return new ApiException(UNPROCESSABLE, TYPE, "text_too_long", "The text of '" + fileName + "' is longer than "
                + maxTextChars + " characters (switchboard.knowledge.documents.max-text-chars); split the document");
    }

    static ApiException timedOut(String fileName) {
        return new ApiException(UNPROCESSABLE, TYPE, "extraction_timeout", "Reading the text of '" + fileName
                + "' took longer than allowed (switchboard.knowledge.documents.extraction-timeout); split the document "
                + "or save it in a simpler format");
    }

    static ApiException encrypted(String fileName) {
        return new ApiException(UNPROCESSABLE, TYPE, "encrypted_document", "'" + fileName
                + "' is protected by a password; upload it unprotected");
    }

    static ApiException failed(String fileName, String reason) {
        return new ApiException(UNPROCESSABLE, TYPE, "extraction_failed", "The text of '" + fileName
                + "' could not be read: " + reason);
    }

    static ApiException noText(String fileName) {
        return new ApiException(UNPROCESSABLE, TYPE, "no_text", "'" + fileName + "' contains no text to search (a "
                + "scanned document needs text recognition, which Switchboard does not do)");
    }

    static ApiException busy() {
        return new ApiException(Response.Status.SERVICE_UNAVAILABLE, "server_error", "extraction_busy",
                "Switchboard is reading other documents right now; try again in a moment");
    }

    static ApiException nameTaken(String name, long existingId) {
        return ApiException.conflict("document_exists", "A document named '" + name + "' exists already (id "
                + existingId + "); replace it with PUT /api/knowledge/documents/" + existingId + " or rename the file");
    }
}
