package dev.switchboard.it.support;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** Requests with a multipart/form-data body, as a browser form or {@code curl -F} sends files. */
public final class Multipart {

    private Multipart() {
    }

    /** One part: a file when it has a file name, a text field otherwise. */
    public record Part(String name, String fileName, byte[] content) {
    }

    /** The part named {@code file} that upload endpoints read. */
    public static Part file(String fileName, byte[] content) {
        return new Part("file", fileName, content);
    }

    public static Part field(String name, String value) {
        return new Part(name, null, value.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends the parts in one body, each file as application/octet-stream. */
    public static Api.Reply send(String method, String path, String token, Part... parts) {
        String boundary = "----switchboard-it-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Part part : parts) {
            String disposition = "Content-Disposition: form-data; name=\"" + part.name() + "\""
                    + (part.fileName() == null ? "" : "; filename=\"" + part.fileName() + "\"\r\nContent-Type: application/octet-stream");
            body.writeBytes(("--" + boundary + "\r\n" + disposition + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            body.writeBytes(part.content());
            body.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        body.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return Api.send(method, path, token, "multipart/form-data; boundary=" + boundary, body.toByteArray());
    }
}
