package dev.switchboard.chat.events;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where an event stands in its conversation's log, sent as the SSE {@code id} ({@code <log>-<sequence>}) and read back
 * from {@code Last-Event-ID}. The sequence counts a log's events from 1 (0: before the first); the log number changes
 * when a log starts over (a restart, a log dropped for idleness), so an id of an earlier log is recognised as such
 * instead of being mistaken for a position in the new one. Ids grow in the order of the events of a conversation.
 *
 * @param log      the log the event belongs to
 * @param sequence the event's number in that log
 */
public record EventId(long log, long sequence) {

    private static final Pattern FORMAT = Pattern.compile("(\\d{1,18})-(\\d{1,18})");

    /** The id as sent, or empty when the text is not one of ours. */
    public static Optional<EventId> parse(String text) {
        Matcher matcher = FORMAT.matcher(text == null ? "" : text.strip());
        return matcher.matches()
                ? Optional.of(new EventId(Long.parseLong(matcher.group(1)), Long.parseLong(matcher.group(2))))
                : Optional.empty();
    }

    @Override
    public String toString() {
        return log + "-" + sequence;
    }
}
