package dev.switchboard.observability.timeline;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.logging.Logger;

/**
 * Samples the call metrics into the {@link MetricsTimeline} every {@code switchboard.metrics.timeline-interval}
 * (a minute), keeping {@code switchboard.metrics.timeline-history} (an hour) in memory: MicroProfile Metrics only
 * count from start-up, and the console's charts want per-minute figures. A non-persistent EJB interval timer: the
 * history is this process's own and starts again with it, and a missed tick only makes one point longer.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN) // the timeline is thread-safe itself
public class MetricsSampler {

    private static final Logger LOG = Logger.getLogger(MetricsSampler.class.getName());
    /** A week of minutes: more points than this make a history no chart can show. */
    static final int MAX_POINTS = 10_080;

    @Resource
    TimerService timers;

    @Inject
    CallMetricsReader reader;

    @Inject
    @ConfigProperty(name = "switchboard.metrics.timeline-interval", defaultValue = "PT1M")
    Duration interval;

    @Inject
    @ConfigProperty(name = "switchboard.metrics.timeline-history", defaultValue = "PT1H")
    Duration history;

    private MetricsTimeline timeline;

    @PostConstruct
    void start() {
        timeline = new MetricsTimeline(capacity(interval, history), reader.read(Instant.now()));
        timers.createIntervalTimer(interval.toMillis(), interval.toMillis(), new TimerConfig("metrics-timeline", false));
        LOG.info(() -> "Call metrics are sampled every " + interval + ", the last " + history + " kept");
    }

    @Timeout
    void sample() {
        timeline.add(reader.read(Instant.now()));
    }

    /** The points of the {@code window} before {@code now}, the running interval up to {@code now} last. */
    public List<TimelinePoint> last(Instant now, Duration window) {
        return timeline.since(now.minus(window), reader.read(now));
    }

    public Duration interval() {
        return interval;
    }

    public Duration history() {
        return history;
    }

    public Instant startedAt() {
        return timeline.startedAt();
    }

    /** How many points cover the history; a setting that makes no sense stops the start with the reason. */
    static int capacity(Duration interval, Duration history) {
        if (interval.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("switchboard.metrics.timeline-interval must be at least 1 second, not " + interval);
        }
        if (history.compareTo(interval) < 0) {
            throw new IllegalArgumentException("switchboard.metrics.timeline-history (" + history
                    + ") must be at least switchboard.metrics.timeline-interval (" + interval + ")");
        }
        long points = (history.toMillis() + interval.toMillis() - 1) / interval.toMillis();
        if (points > MAX_POINTS) {
            throw new IllegalArgumentException("switchboard.metrics.timeline-history / timeline-interval gives " + points
                    + " points; at most " + MAX_POINTS + " are kept");
        }
        return (int) points;
    }
}
