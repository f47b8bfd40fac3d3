package dev.switchboard.sql.tcp;

import dev.switchboard.sql.dialect.DialectChannel;
import dev.switchboard.sql.dialect.DialectMessageLimit;
import dev.switchboard.sql.dialect.QueryDialectHandler;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import dev.switchboard.sql.dialect.DialectMessages;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The query dialect's TCP transport: newline-delimited JSON messages of the dialect, one per line, both ways. Each
 * connection has one reader thread (from the container's thread factory); at most {@code maxConnections} are open,
 * further ones get a -32000 line and are closed. A line longer than {@code maxMessageBytes} is answered with -32600
 * and skipped; a line that is not JSON with -32700.
 */
public final class TcpDialectServer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(TcpDialectServer.class.getName());

    private final QueryDialectHandler handler;
    private final ThreadFactory threads;
    private final int maxConnections;
    private final int maxMessageBytes;
    private final ServerSocket server;
    private final Map<String, Connection> open = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final AtomicInteger count = new AtomicInteger();

    public TcpDialectServer(QueryDialectHandler handler, ThreadFactory threads, String host, int port, int maxConnections,
                            int maxMessageBytes) throws IOException {
        this.handler = handler;
        this.threads = threads;
        this.maxConnections = maxConnections;
        this.maxMessageBytes = maxMessageBytes;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(host, port));
        threads.newThread(this::accept).start();
    }

    public int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                if (count.incrementAndGet() > maxConnections) {
                    count.decrementAndGet();
                    refuse(socket);
                    continue;
                }
                Connection connection = new Connection("tcp-" + ids.incrementAndGet(), socket);
                open.put(connection.id(), connection);
                threads.newThread(connection::read).start();
            } catch (IOException e) {
                if (!server.isClosed()) {
                    LOG.log(Level.WARNING, "query-dialect TCP accept failed", e);
                }
            }
        }
    }

    private static void refuse(Socket socket) {
        try (socket) {
            socket.getOutputStream().write((DialectMessages.error(null, QueryErrorCode.SERVER, "连接数已达上限",
                    Map.of("reason", "too_many_connections")) + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // the client is gone already
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        open.values().forEach(c -> c.close("server stopping"));
    }

    private static QueryException queryException(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof QueryException q) {
                return q;
            }
        }
        return null;
    }

    /** One client socket as the dialect's channel. */
    private final class Connection implements DialectChannel {
        private final String id;
        private final Socket socket;
        private final Map<String, Object> attributes = new ConcurrentHashMap<>();
        private final OutputStream out;

        Connection(String id, Socket socket) throws IOException {
            this.id = id;
            this.socket = socket;
            this.out = socket.getOutputStream();
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public void send(JsonObject message) {
            byte[] line = (message.toString() + "\n").getBytes(StandardCharsets.UTF_8);
            synchronized (out) {
                try {
                    out.write(line);
                    out.flush();
                } catch (IOException e) {
                    close("write failed");
                }
            }
        }

        @Override
        public void close(String reason) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing anyway
            }
        }

        @Override
        public Map<String, Object> attributes() {
            return attributes;
        }

        void read() {
            try (socket; InputStream in = new BufferedInputStream(socket.getInputStream())) {
                ByteArrayOutputStream line = new ByteArrayOutputStream();
                boolean skipping = false;
                long lineBytes = 0;
                int b;
                while ((b = in.read()) >= 0) {
                    if (b != '\n') {
                        lineBytes++;
                        if (lineBytes > maxMessageBytes && !skipping) {
                            skipping = true;
                            line.reset();
                        }
                        if (!skipping) {
                            line.write(b);
                        }
                        continue;
                    }
                    if (skipping) {
                        send(DialectMessageLimit.tooLarge(maxMessageBytes, lineBytes));
                    } else {
                        dispatch(line.toByteArray());
                    }
                    line.reset();
                    skipping = false;
                    lineBytes = 0;
                }
            } catch (SocketException e) {
                // closed by either side
            } catch (IOException e) {
                LOG.log(Level.FINE, "query-dialect TCP connection " + id + " failed", e);
            } finally {
                open.remove(id);
                count.decrementAndGet();
                handler.onClose(this);
            }
        }

        private static boolean blank(byte[] line) {
            for (byte b : line) {
                if (b != ' ' && b != '\t' && b != '\r') {
                    return false;
                }
            }
            return true;
        }

        /** One line, read from its bytes so that bytes that are not UTF-8 are refused rather than replaced. */
        private void dispatch(byte[] line) {
            if (blank(line)) {
                return;
            }
            JsonValue value;
            try (JsonReader reader = JSON.createReader(new ByteArrayInputStream(line))) {
                value = reader.readValue();
            } catch (JsonException e) {
                send(DialectMessages.error(null, QueryErrorCode.PARSE, "JSON 解析错误", Map.of("reason", String.valueOf(e.getMessage()))));
                return;
            }
            if (!(value instanceof JsonObject message)) {
                send(DialectMessages.error(null, QueryErrorCode.INVALID_REQUEST, "消息须为 JSON 对象", Map.of()));
                return;
            }
            try {
                handler.onMessage(message, this);
            } catch (RuntimeException e) {
                // the handler bean could not be created (query database down): its own error, however CDI wrapped it
                QueryException known = queryException(e);
                if (known != null) {
                    send(DialectMessages.error(message.get("id"), known));
                    return;
                }
                LOG.log(Level.WARNING, "query-dialect message failed on " + id, e);
                send(DialectMessages.error(message.get("id"), QueryErrorCode.INTERNAL, "内部错误",
                        Map.of("reason", e.getClass().getSimpleName())));
            }
        }
    }
}
