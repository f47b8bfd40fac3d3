package dev.switchboard.sql.tcp;

import jakarta.json.JsonObject;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/** One TCP connection to a dialect transport whose handler echoes each message's id (messages up to 8 MiB). */
final class EchoLine implements AutoCloseable {

    private final TcpDialectServer server;
    private final Socket socket;
    private final OutputStream out;
    private final BufferedReader in;

    EchoLine() throws IOException {
        server = new TcpDialectServer(new TcpDialectServerTest.Echo(), Executors.defaultThreadFactory(), "127.0.0.1", 0, 1, 8 * 1024 * 1024);
        socket = new Socket("127.0.0.1", server.port());
        socket.setSoTimeout(20_000);
        out = socket.getOutputStream();
        in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Sends the bytes as they are, then a newline. */
    void send(byte[] line) throws IOException {
        out.write(line);
        out.write('\n');
        out.flush();
    }

    JsonObject read() throws Exception {
        return TcpDialectServerTest.read(in);
    }

    @Override
    public void close() throws Exception {
        socket.close();
        server.close();
    }
}
