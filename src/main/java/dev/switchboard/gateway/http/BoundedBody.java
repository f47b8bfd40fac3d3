package dev.switchboard.gateway.http;

import jakarta.servlet.http.HttpServletRequest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * Reads a request body, never holding more than the limit: a huge body is refused, not buffered. Its bytes go to the
 * JSON reader as they are, which decodes them as strict UTF-8 (bytes that are not UTF-8 are refused, not replaced).
 */
final class BoundedBody {

    private BoundedBody() {
    }

    /** The body, or empty when it is longer than {@code maxBytes}. */
    static Optional<byte[]> read(HttpServletRequest request, long maxBytes) throws IOException {
        long declared = request.getContentLengthLong();
        if (declared > maxBytes) {
            return Optional.empty();
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream(declared > 0 ? (int) declared : 1024);
        byte[] buffer = new byte[8192];
        try (InputStream in = request.getInputStream()) {
            int n;
            while ((n = in.read(buffer)) != -1) {
                if (body.size() + (long) n > maxBytes) {
                    return Optional.empty();
                }
                body.write(buffer, 0, n);
            }
        }
        return Optional.of(body.toByteArray());
    }
}
