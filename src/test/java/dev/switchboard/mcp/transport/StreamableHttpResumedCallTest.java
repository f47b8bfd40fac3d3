package dev.switchboard.mcp.transport;

import dev.switchboard.mcp.ProtocolVersions;
import dev.switchboard.mcp.client.BackendSpec;
import dev.switchboard.mcp.client.DefaultMcpConnector;
import dev.switchboard.mcp.client.McpClient;
import dev.switchboard.testing.RecordingTraffic;
import dev.switchboard.testing.ServerEverything;
import dev.switchboard.testing.TestThreads;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A call to the real server-everything (Streamable HTTP, with its in-memory event store) whose SSE answer a TCP proxy
 * cuts in the middle of a progress notification: the transport resumes the stream with a GET and
 * {@code Last-Event-ID}, and the call completes with every progress notification delivered once, in order.
 */
class StreamableHttpResumedCallTest {

    private static final String CALLED_TOOL = "trigger-long-running-operation";
    private static final int STEPS = 5;
    /** The proxy cuts the answer stream in the middle of this progress notification. */
    private static final int CUT_AT_PROGRESS = 2;
    /**
     * How long the proxy holds a resuming GET. server-everything's event store replays what it holds, but registers
     * the resumed stream under the id of an event rather than of its stream, so the call's later events reach only the
     * store; held this long, the resumption comes after the operation ended and finds all of them there.
     */
    private static final Duration HOLD_RESUMPTION = Duration.ofSeconds(1);

    private TestThreads threads;
    private ServerEverything backend;
    private CuttingProxy proxy;

    @BeforeEach
    void start() throws IOException {
        threads = new TestThreads();
        backend = ServerEverything.start(ServerEverything.Mode.STREAMABLE_HTTP);
        proxy = new CuttingProxy(backend.port(), threads.executor());
    }

    @AfterEach
    void stop() throws Exception {
        proxy.close();
        backend.close();
        threads.close();
    }

    @Test
    void aCallWhoseAnswerStreamIsCutCompletesOnTheResumedStream() throws Exception {
        RecordingTraffic traffic = new RecordingTraffic();
        DefaultMcpConnector connector = new DefaultMcpConnector(threads.executor(), threads.scheduler(), traffic);
        BackendSpec spec = BackendSpec.http(BackendSpec.TransportType.STREAMABLE_HTTP, proxy.url(), Map.of());
        try (McpClient client = connector.connect(spec, Duration.ofSeconds(15))) {
            List<JsonObject> progress = new CopyOnWriteArrayList<>();
            JsonObject done = client.callTool(CALLED_TOOL,
                    Json.createObjectBuilder().add("duration", 0.5).add("steps", STEPS).build(), Duration.ofSeconds(20), progress::add);

            assertTrue(done.toString().contains("completed"), done::toString);
            assertTrue(proxy.cut.get(), "the proxy cut the answer stream");
            assertEquals(1, proxy.resumptions.size(), proxy.resumptions::toString);
            assertEquals(List.of(1, 2, 3, 4, 5), progress.stream().map(p -> p.getInt("progress")).toList(),
                    "every progress once, in order");
            assertTrue(client.isOpen(), "the session survived the cut");
        }
        traffic.assertAllSentValid(ProtocolVersions.LATEST);
    }

    /**
     * Forwards TCP connections to the backend. On the connection that carries the call it forwards the answer up to the
     * middle of its {@link #CUT_AT_PROGRESS}th progress notification, then closes both sides; a request resuming a
     * stream ({@code Last-Event-ID}) is held {@link #HOLD_RESUMPTION} before it goes on.
     */
    private static final class CuttingProxy implements AutoCloseable {

        private static final String PROGRESS = "notifications/progress";

        final AtomicBoolean cut = new AtomicBoolean();
        /** The {@code Last-Event-ID} line of every resuming request. */
        final List<String> resumptions = new CopyOnWriteArrayList<>();
        private final ServerSocket listener;
        private final int backendPort;
        private final ExecutorService executor;

        CuttingProxy(int backendPort, ExecutorService executor) throws IOException {
            this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            this.backendPort = backendPort;
            this.executor = executor;
            executor.execute(this::accept);
        }

        String url() {
            return "http://127.0.0.1:" + listener.getLocalPort() + "/mcp";
        }

        private void accept() {
            while (!listener.isClosed()) {
                try {
                    Socket client = listener.accept();
                    Socket server = new Socket(InetAddress.getLoopbackAddress(), backendPort);
                    Connection connection = new Connection(client, server);
                    executor.execute(connection::forwardRequests);
                    executor.execute(connection::forwardAnswers);
                } catch (IOException e) {
                    // closed at the end of the test
                }
            }
        }

        @Override
        public void close() throws IOException {
            listener.close();
        }

        private final class Connection {

            private final Socket client;
            private final Socket server;
            private volatile boolean carriesTheCall;

            Connection(Socket client, Socket server) {
                this.client = client;
                this.server = server;
            }

            void forwardRequests() {
                byte[] buffer = new byte[16384];
                try (InputStream in = client.getInputStream(); OutputStream out = server.getOutputStream()) {
                    int n;
                    while ((n = in.read(buffer)) > 0) {
                        String text = new String(buffer, 0, n, StandardCharsets.ISO_8859_1);
                        carriesTheCall |= !cut.get() && text.contains(CALLED_TOOL);
                        String resumingAfter = lastEventIdLine(text);
                        if (resumingAfter != null) {
                            resumptions.add(resumingAfter);
                            Thread.sleep(HOLD_RESUMPTION.toMillis());
                        }
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                } catch (IOException e) {
                    // either side closed
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    closeBoth();
                }
            }

            void forwardAnswers() {
                byte[] buffer = new byte[16384];
                StringBuilder answer = new StringBuilder();
                try (InputStream in = server.getInputStream(); OutputStream out = client.getOutputStream()) {
                    int n;
                    while ((n = in.read(buffer)) > 0) {
                        if (!carriesTheCall) {
                            out.write(buffer, 0, n);
                            out.flush();
                            continue;
                        }
                        int before = answer.length();
                        answer.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
                        int cutAt = cutPosition(answer);
                        if (cutAt < 0) {
                            out.write(buffer, 0, n);
                            out.flush();
                            continue;
                        }
                        out.write(buffer, 0, Math.max(0, cutAt - before));
                        out.flush();
                        cut.set(true);
                        return;
                    }
                } catch (IOException e) {
                    // either side closed
                } finally {
                    closeBoth();
                }
            }

            /** Where the answer is cut: just after the method of its CUT_AT_PROGRESS-th progress, or -1 before that. */
            private int cutPosition(StringBuilder answer) {
                int at = -1;
                for (int i = 0; i < CUT_AT_PROGRESS; i++) {
                    at = answer.indexOf(PROGRESS, at + 1);
                    if (at < 0) {
                        return -1;
                    }
                }
                return at + PROGRESS.length();
            }

            private void closeBoth() {
                try {
                    client.close();
                    server.close();
                } catch (IOException e) {
                    // already closed
                }
            }
        }

        private static String lastEventIdLine(String requestHead) {
            for (String line : requestHead.split("\r\n")) {
                if (line.toLowerCase(Locale.ROOT).startsWith("last-event-id:")) {
                    return line;
                }
            }
            return null;
        }
    }
}
