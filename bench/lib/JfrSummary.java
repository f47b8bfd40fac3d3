import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The summary bench/lib/profile.mjs prints for a Flight Recorder recording of the Switchboard JVM: where the CPU
 * samples land (hottest methods, Switchboard methods on the stack), which code started threads, and how long the JIT
 * compiled. Read with the JDK's own recording API, event by event, so a recording of minutes under load (gigabytes as
 * `jfr print --json`) needs no more memory than its counters. Run as a single-file program:
 * {@code java bench/lib/JfrSummary.java FILE.jfr}.
 */
public final class JfrSummary {

    private static final int TOP = 15;

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        Map<String, Integer> self = new HashMap<>();
        Map<String, Integer> onStack = new HashMap<>();
        Map<String, Integer> starters = new HashMap<>();
        int samples = 0;
        int starts = 0;
        Duration compiling = Duration.ZERO;
        try (RecordingFile recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                String type = event.getEventType().getName();
                List<RecordedFrame> frames = event.getStackTrace() == null ? List.of() : event.getStackTrace().getFrames();
                if (type.equals("jdk.ExecutionSample") && !frames.isEmpty()) {
                    samples++;
                    self.merge(name(frames.get(0)), 1, Integer::sum);
                    // inclusive: every distinct Switchboard method on the stack, once per sample
                    Set<String> seen = new LinkedHashSet<>();
                    frames.stream().map(JfrSummary::name).filter(n -> n.startsWith("dev.switchboard.")).forEach(seen::add);
                    seen.forEach(n -> onStack.merge(n, 1, Integer::sum));
                } else if (type.equals("jdk.ThreadStart")) {
                    // a thread per call shows up here (e.g. the JDK HttpClient's completion on a thread-per-task executor
                    // when the common pool has fewer than 2 threads)
                    starts++;
                    String by = frames.stream().limit(3).map(JfrSummary::name).collect(Collectors.joining(" < "));
                    starters.merge(by.isEmpty() ? "?" : by, 1, Integer::sum);
                } else if (type.equals("jdk.Compilation")) {
                    compiling = compiling.plus(event.getDuration());
                }
            }
        }
        System.out.println("Switchboard JVM profile (recording " + file + "):");
        System.out.println("CPU samples: " + samples + "; hottest methods (self):\n" + top(self, samples));
        System.out.println("Switchboard methods on the stack (inclusive):\n" + top(onStack, samples));
        System.out.println("threads started: " + starts + ", by:\n" + top(starters, Math.max(1, starts)));
        System.out.printf("JIT compilation during the recording: %.1f s (a JVM still warming up when this is large)%n",
                compiling.toMillis() / 1000.0);
    }

    private static String name(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    private static String top(Map<String, Integer> counts, int total) {
        return counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(TOP)
                .map(e -> String.format("  %5.1f%%  %s", 100.0 * e.getValue() / total, e.getKey()))
                .collect(Collectors.joining("\n"));
    }
}
