package dev.switchboard.cluster;

import com.hazelcast.map.EntryProcessor;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the members know of one {@code /mcp} session's shared streams, kept in a Hazelcast map under the session id:
 * whose session it is, whether its GET stream was opened, the last request stream number given out (numbers are unique
 * in the session whichever member gives them), the request streams still running and the answered ones still kept,
 * oldest first. Changed only by the entry processors below, each one step at the key's owner.
 *
 * @param subject      the session's caller
 * @param serverStream whether the GET stream (stream 0) was opened
 * @param lastNumber   the last request stream number given out
 * @param running      request streams not answered yet (always kept: their response is still to come)
 * @param finished     the answered request streams still kept, oldest first
 */
record StreamsOfSession(String subject, boolean serverStream, int lastNumber, List<Integer> running,
                        List<Integer> finished) implements Serializable {

    static StreamsOfSession of(String subject) {
        return new StreamsOfSession(subject, false, 0, List.of(), List.of());
    }

    /** Whether stream {@code number} of the session is kept. */
    boolean keeps(int number) {
        return number == 0 ? serverStream : running.contains(number) || finished.contains(number);
    }

    /** Every stream the session keeps, for when it ends. */
    List<Integer> numbers() {
        List<Integer> all = new ArrayList<>(running);
        all.addAll(finished);
        if (serverStream) {
            all.add(0);
        }
        return all;
    }

    /** Opens the GET stream; answers whether it was opened just now. */
    record OpenServerStream(String subject) implements EntryProcessor<String, StreamsOfSession, Boolean> {
        @Override
        public Boolean process(Map.Entry<String, StreamsOfSession> entry) {
            StreamsOfSession current = entry.getValue() == null ? of(subject) : entry.getValue();
            entry.setValue(new StreamsOfSession(current.subject, true, current.lastNumber, current.running, current.finished));
            return !current.serverStream;
        }
    }

    /** Gives out the next request stream number; the stream runs until {@link Finished}. */
    record NextNumber(String subject) implements EntryProcessor<String, StreamsOfSession, Integer> {
        @Override
        public Integer process(Map.Entry<String, StreamsOfSession> entry) {
            StreamsOfSession current = entry.getValue() == null ? of(subject) : entry.getValue();
            int next = current.lastNumber + 1;
            List<Integer> running = new ArrayList<>(current.running);
            running.add(next);
            entry.setValue(new StreamsOfSession(current.subject, current.serverStream, next, List.copyOf(running),
                    current.finished));
            return next;
        }
    }

    /**
     * Records that request stream {@code number} was answered; answers the answered streams now beyond the {@code keep}
     * newest, which are no longer kept (their rings go).
     */
    record Finished(int number, int keep) implements EntryProcessor<String, StreamsOfSession, List<Integer>> {
        @Override
        public List<Integer> process(Map.Entry<String, StreamsOfSession> entry) {
            StreamsOfSession current = entry.getValue();
            if (current == null || !current.running.contains(number)) {
                return List.of();
            }
            List<Integer> running = new ArrayList<>(current.running);
            running.remove(Integer.valueOf(number));
            List<Integer> finished = new ArrayList<>(current.finished);
            finished.add(number);
            List<Integer> beyond = new ArrayList<>();
            while (finished.size() > Math.max(keep, 0)) {
                beyond.add(finished.remove(0));
            }
            entry.setValue(new StreamsOfSession(current.subject, current.serverStream, current.lastNumber,
                    List.copyOf(running), List.copyOf(finished)));
            return beyond;
        }
    }
}
