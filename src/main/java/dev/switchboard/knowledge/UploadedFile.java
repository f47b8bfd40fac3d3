package dev.switchboard.knowledge;

import dev.switchboard.platform.ApiException;
import jakarta.ws.rs.core.EntityPart;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The file of an upload: the one multipart/form-data part named {@value #PART}, as a browser form or
 * {@code curl -F file=@handbook.pdf} sends it. Read by the rules every request body follows (a part the endpoint does
 * not know is {@code unknown_field}, a text field where a file belongs {@code invalid_type}, no file
 * {@code missing_field}), read no further than the size limit, and named by its file name without any folder.
 *
 * @param name   the file name as uploaded, folders removed
 * @param bytes  the file
 * @param sha256 of the bytes, hex
 */
record UploadedFile(String name, byte[] bytes, String sha256) {

    static final String PART = "file";
    static final int MAX_NAME_CHARS = 255;

    static UploadedFile of(List<EntityPart> parts, long maxBytes) {
        EntityPart file = null;
        for (EntityPart part : parts) {
            if (!PART.equals(part.getName())) {
                throw ApiException.badRequest("unknown_field", "Unknown part '" + part.getName()
                        + "': send the document as one multipart/form-data part named 'file'");
            }
            if (file != null) {
                throw ApiException.badRequest("invalid_field", "Send one file per request: there are several parts named 'file'");
            }
            file = part;
        }
        if (file == null) {
            throw ApiException.badRequest("missing_field", "'file' is required: send the document as a multipart/form-data "
                    + "part named 'file' (curl -F file=@handbook.pdf)");
        }
        if (file.getFileName().isEmpty()) {
            throw ApiException.badRequest("invalid_type", "'file' must be a file, got a text field (a part without a file name)");
        }
        String name = name(file.getFileName().get());
        byte[] bytes = read(file, maxBytes);
        if (bytes.length == 0) {
            throw DocumentErrors.empty(name);
        }
        return new UploadedFile(name, bytes, sha256(bytes));
    }

    /** The last segment of what the client sent (older browsers sent whole paths), without control characters. */
    static String name(String sent) {
        String name = sent.substring(Math.max(sent.lastIndexOf('/'), sent.lastIndexOf('\\')) + 1)
                .replaceAll("\\p{Cntrl}", "").strip();
        if (name.isEmpty() || name.equals(".") || name.equals("..")) {
            throw ApiException.badRequest("invalid_file_name", "The file needs a name, e.g. handbook.pdf");
        }
        if (name.length() > MAX_NAME_CHARS) {
            throw ApiException.badRequest("invalid_file_name", "File names may be at most " + MAX_NAME_CHARS + " characters");
        }
        return name;
    }

    private static byte[] read(EntityPart file, long maxBytes) {
        try (InputStream in = file.getContent()) {
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            if (bytes.length > maxBytes) {
                throw DocumentErrors.tooLarge(maxBytes);
            }
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException("reading the uploaded file failed", e);
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
