package dev.switchboard.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in front of a local port that passes everything through, except that it resets (RST, not FIN) a
 * connection as soon as a request on it contains the marker: a connection lost in the middle of one exchange, the
 * session at the server untouched.
 */
public final class ResettingProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final int targetPort;
    private final String marker;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final AtomicInteger resets = new AtomicInteger();

    public ResettingProxy(int targetPort, String marker) throws IOException {
        this.targetPort = targetPort;
        this.marker = marker;
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        threads.execute(this::accept);
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Connections reset so far. */
    public int resets() {
        return resets.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                threads.execute(() -> pipe(client, server, true));
                threads.execute(() -> pipe(server, client, false));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pipe(Socket from, Socket to, boolean requests) {
        byte[] buffer = new byte[16384];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                if (requests && new String(buffer, 0, read, StandardCharsets.UTF_8).contains(marker)) {
                    resets.incrementAndGet();
                    reset(from);
                    reset(to);
                    return;
                }
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException e) {
            // the other direction closed or reset it
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static void reset(Socket socket) throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already gone
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        threads.shutdownNow();
    }
}
