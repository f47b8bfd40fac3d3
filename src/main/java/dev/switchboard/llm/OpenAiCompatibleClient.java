package dev.switchboard.llm;

import dev.switchboard.platform.sse.SseEvent;
import dev.switchboard.platform.sse.SseReader;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Chat completions over plain HTTP ({@code java.net.http}) from any OpenAI-compatible provider: OpenAI, Ollama,
 * vLLM, Volcengine Ark. The API key goes into the {@code Authorization} header only; no message built here
 * contains it.
 */
public final class OpenAiCompatibleClient implements LlmClient {

    private static final int ERROR_BODY_LIMIT = 4096;

    private final LlmSettings settings;
    private final HttpClient http;
    private final ScheduledExecutorService deadlines;

    /**
     * @param executor  runs the HTTP client's I/O (the container's managed executor in the server)
     * @param deadlines closes a stream that stays silent past the read timeout
     */
    public OpenAiCompatibleClient(LlmSettings settings, Executor executor, ScheduledExecutorService deadlines) {
        this.settings = settings;
        this.deadlines = deadlines;
        this.http = HttpClient.newBuilder()
                .connectTimeout(settings.connectTimeout())
                .executor(executor)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    public LlmSettings settings() {
        return settings;
    }

    @Override
    public String defaultModel() {
        return settings.defaultModel();
    }

    @Override
    public LlmReply complete(JsonObject request) throws LlmException {
        HttpResponse<InputStream> response = send(post(request, false), "an answer");
        String body;
        try (InputStream in = response.body()) {
            body = readWhole(in);
        } catch (IOException e) {
            throw new LlmException(LlmException.Kind.FAILED, "The LLM provider's answer broke off: " + e.getMessage(), 0, e);
        }
        failIfNotOk(response.statusCode(), body);
        return ReplyParser.completion(body);
    }

    @Override
    public LlmReply stream(JsonObject request, StreamListener listener) throws LlmException {
        HttpResponse<InputStream> response = send(post(request, true), "the first byte of a stream");
        try (InputStream body = response.body()) {
            if (response.statusCode() != 200) {
                failIfNotOk(response.statusCode(), new String(body.readNBytes(ERROR_BODY_LIMIT), StandardCharsets.UTF_8));
            }
            String type = response.headers().firstValue("Content-Type").orElse("");
            if (type.startsWith("application/json")) {
                // a provider that ignores "stream": the whole answer at once
                LlmReply reply = ReplyParser.completion(new String(body.readAllBytes(), StandardCharsets.UTF_8));
                if (!reply.content().isEmpty()) {
                    listener.onContent(reply.content());
                }
                return reply;
            }
            return readStream(body, listener);
        } catch (IOException e) {
            throw new LlmException(LlmException.Kind.FAILED, "The LLM provider's stream broke off: " + e.getMessage(), 0, e);
        }
    }

    /** A blocking answer's body, abandoned when it has not all come within the read timeout. */
    private String readWhole(InputStream body) throws LlmException, IOException {
        SilenceWatch watch = new SilenceWatch(body, settings.readTimeout().toNanos());
        try {
            watch.waiting();
            byte[] bytes = body.readAllBytes();
            if (watch.fired()) {
                throw unfinished(null);
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            if (watch.fired()) {
                throw unfinished(e);
            }
            throw e;
        } finally {
            watch.stop();
        }
    }

    private LlmException unfinished(Throwable cause) {
        return new LlmException(LlmException.Kind.TIMEOUT, "The LLM provider at " + settings.baseUrl()
                + " did not finish its answer within " + settings.readTimeout().toSeconds() + " s (llm.read-timeout)", 0, cause);
    }

    private LlmReply readStream(InputStream body, StreamListener listener) throws LlmException, IOException {
        StreamAssembler assembler = new StreamAssembler(listener);
        SseReader events = new SseReader(body);
        SilenceWatch watch = new SilenceWatch(body, settings.readTimeout().toNanos());
        // the listener's own writes (to a slow client, say) are not the provider's silence
        Runnable beforeWaiting = () -> {
            watch.notWaiting();
            listener.onWaiting();
            watch.waiting();
        };
        try {
            while (true) {
                SseEvent event;
                try {
                    watch.waiting();
                    event = events.next(beforeWaiting);
                } catch (IOException e) {
                    if (watch.fired()) {
                        throw silentFor(e);
                    }
                    throw e;
                } finally {
                    watch.notWaiting();
                }
                if (watch.fired()) {
                    throw silentFor(null);
                }
                if (event == null) {
                    return assembler.finish(false);
                }
                if ("[DONE]".equals(event.data().strip())) {
                    return assembler.finish(true);
                }
                assembler.accept(ReplyParser.object(event.data(), "a stream chunk"));
            }
        } finally {
            watch.stop();
        }
    }

    /**
     * Closes a stream's body when the provider sends nothing for the read timeout while the next chunk is awaited.
     * One timer per stream that re-arms itself for what is left of the wait: a timer per chunk (scheduled and
     * cancelled on the managed scheduler, which captures the thread context each time) cost more than the chunk.
     */
    private final class SilenceWatch {

        private static final long NOT_WAITING = Long.MIN_VALUE;

        private final InputStream body;
        private final long timeoutNanos;
        private volatile long waitingSince = NOT_WAITING;
        private volatile boolean fired;
        // guarded by this
        private ScheduledFuture<?> timer;
        private boolean stopped;

        SilenceWatch(InputStream body, long timeoutNanos) {
            this.body = body;
            this.timeoutNanos = timeoutNanos;
            arm(timeoutNanos);
        }

        void waiting() {
            waitingSince = System.nanoTime();
        }

        void notWaiting() {
            waitingSince = NOT_WAITING;
        }

        boolean fired() {
            return fired;
        }

        synchronized void stop() {
            stopped = true;
            timer.cancel(false);
        }

        private synchronized void arm(long delayNanos) {
            if (!stopped) {
                timer = deadlines.schedule(this::check, delayNanos, TimeUnit.NANOSECONDS);
            }
        }

        private void check() {
            long since = waitingSince;
            long left = since == NOT_WAITING ? timeoutNanos : timeoutNanos - (System.nanoTime() - since);
            if (left > 0) {
                arm(left);
                return;
            }
            fired = true;
            closeQuietly(body);
        }
    }

    private LlmException silentFor(Throwable cause) {
        return new LlmException(LlmException.Kind.TIMEOUT, "The LLM provider sent nothing for " + settings.readTimeout().toSeconds()
                + " s in the middle of a stream (llm.read-timeout)", 0, cause);
    }

    private HttpRequest post(JsonObject request, boolean stream) {
        JsonObjectBuilder body = JSON.createObjectBuilder(request);
        if (!request.containsKey("model") || request.isNull("model")) {
            body.add("model", settings.defaultModel());
        }
        body.remove("stream");
        body.remove("stream_options");
        if (stream) {
            body.add("stream", true).add("stream_options", JSON.createObjectBuilder().add("include_usage", true));
        }
        HttpRequest.Builder builder = HttpRequest.newBuilder(settings.completionsUri())
                .timeout(settings.readTimeout())
                .header("Content-Type", "application/json")
                .header("Accept", stream ? "text/event-stream" : "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.build().toString(), StandardCharsets.UTF_8));
        if (settings.hasApiKey()) {
            builder.header("Authorization", "Bearer " + settings.apiKey());
        }
        return builder.build();
    }

    /**
     * Sends on the calling thread and waits for the response headers, at most the read timeout (the request's own
     * timeout). Blocking on purpose: {@code sendAsync} on a client with its own executor completes every exchange on
     * {@code CompletableFuture}'s default executor, which starts a thread per task where the common pool has one
     * thread (machines with two cores or fewer); the caller waits for the answer anyway.
     */
    private HttpResponse<InputStream> send(HttpRequest request, String what) throws LlmException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpConnectTimeoutException e) {
            throw connectFailure(e);
        } catch (HttpTimeoutException e) {
            throw new LlmException(LlmException.Kind.TIMEOUT, "The LLM provider at " + settings.baseUrl() + " gave no answer within "
                    + settings.readTimeout().toSeconds() + " s (llm.read-timeout) while waiting for " + what, 0, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LlmException(LlmException.Kind.TIMEOUT, "Interrupted while waiting for the LLM provider", 0, e);
        } catch (IOException e) {
            throw connectFailure(e);
        }
    }

    private LlmException connectFailure(Throwable cause) {
        String where = "The LLM provider at " + settings.baseUrl();
        if (cause instanceof HttpConnectTimeoutException) {
            return new LlmException(LlmException.Kind.UNAVAILABLE, where + " did not accept a connection within "
                    + settings.connectTimeout().toSeconds() + " s", 0, cause);
        }
        if (cause instanceof HttpTimeoutException) {
            return new LlmException(LlmException.Kind.TIMEOUT, where + " did not answer in time", 0, cause);
        }
        if (cause instanceof ConnectException || hasCause(cause, UnresolvedAddressException.class)) {
            return new LlmException(LlmException.Kind.UNAVAILABLE, where + " is not reachable (" + describe(cause) + ")", 0, cause);
        }
        return new LlmException(LlmException.Kind.UNAVAILABLE, where + " failed: " + describe(cause), 0, cause);
    }

    private static void failIfNotOk(int status, String body) throws LlmException {
        if (status == 200) {
            return;
        }
        String message = "The LLM provider answered HTTP " + status + ": " + ReplyParser.errorMessage(body);
        throw new LlmException(status >= 400 && status < 500 ? LlmException.Kind.REJECTED : LlmException.Kind.FAILED, message, status, null);
    }

    private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static String describe(Throwable e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // closing is how a silent stream is abandoned; a failure to close changes nothing
        }
    }
}
