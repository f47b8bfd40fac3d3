package dev.switchboard.gateway.tasks;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/** A position in a caller's task list (newest first): the last listed task's creation time and id, opaque to clients. */
public record TaskCursor(long createdAt, String taskId) {

    public String encoded() {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((createdAt + ":" + taskId).getBytes(StandardCharsets.UTF_8));
    }

    /** Empty when the text is no cursor this gateway handed out. */
    public static Optional<TaskCursor> decode(String cursor) {
        try {
            String plain = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            int colon = plain.indexOf(':');
            return colon <= 0 ? Optional.empty() : Optional.of(new TaskCursor(Long.parseLong(plain.substring(0, colon)), plain.substring(colon + 1)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
