package dev.switchboard.knowledge;

import dev.switchboard.platform.LargeBodies;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.regex.Pattern;

/**
 * Uploads of knowledge documents may carry a file of {@code switchboard.knowledge.documents.max-bytes} plus the
 * multipart envelope around it; a larger body is refused before it is read, with the same code as a file found too
 * large once read ({@code file_too_large}).
 */
@ApplicationScoped
public class DocumentUploadLimit implements LargeBodies {

    /** Room for the multipart boundaries and part headers around the file. */
    static final long ENVELOPE_BYTES = 64 * 1024;

    private static final Pattern UPLOAD = Pattern.compile("/api/knowledge/documents(/\\d+)?/?");

    @Inject
    KnowledgeConfiguration configuration;

    @Override
    public BodyLimit limitFor(String method, String path) {
        boolean upload = ("POST".equals(method) || "PUT".equals(method)) && UPLOAD.matcher(path).matches();
        if (!upload) {
            return null;
        }
        long maxBytes = configuration.documents().maxBytes();
        return new BodyLimit(maxBytes + ENVELOPE_BYTES, "file_too_large", DocumentErrors.tooLarge(maxBytes).getMessage());
    }
}
