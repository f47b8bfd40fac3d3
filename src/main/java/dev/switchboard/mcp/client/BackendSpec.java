package dev.switchboard.mcp.client;

import dev.switchboard.mcp.transport.InProcessServer;
import dev.switchboard.platform.egress.AddressGuard;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything needed to reach one MCP backend. Secrets (header and env values) are plain here:
 * this object only lives in memory, decrypted from the registry just before connecting.
 *
 * @param type       transport
 * @param url        endpoint for {@code STREAMABLE_HTTP} and {@code SSE} (the SSE stream URL)
 * @param headers    extra HTTP headers sent on every request (never the caller's token)
 * @param command    executable for {@code STDIO}
 * @param args       its arguments
 * @param env        variables merged over this process's environment; these win
 * @param workingDir working directory of the process, or null for the server's own
 * @param inProcess  for {@code IN_PROCESS}: the server inside this JVM, already bound to the caller it serves
 * @param addressGuard where {@code STREAMABLE_HTTP} and {@code SSE} connections may go; the registry sets it for every
 *                   server (restricted for servers users registered), null means {@link AddressGuard#UNRESTRICTED}
 */
public record BackendSpec(TransportType type, String url, Map<String, String> headers,
                          String command, List<String> args, Map<String, String> env, Path workingDir,
                          InProcessServer inProcess, AddressGuard addressGuard) {

    public enum TransportType { STDIO, STREAMABLE_HTTP, SSE, IN_PROCESS }

    public BackendSpec {
        headers = headers == null ? Map.of() : Map.copyOf(headers);
        args = args == null ? List.of() : List.copyOf(args);
        env = env == null ? Map.of() : Map.copyOf(env);
        addressGuard = addressGuard == null ? AddressGuard.UNRESTRICTED : addressGuard;
    }

    public BackendSpec(TransportType type, String url, Map<String, String> headers,
                       String command, List<String> args, Map<String, String> env, Path workingDir) {
        this(type, url, headers, command, args, env, workingDir, null, null);
    }

    /** This spec with its HTTP connections held to {@code guard}. */
    public BackendSpec restrictedTo(AddressGuard guard) {
        return new BackendSpec(type, url, headers, command, args, env, workingDir, inProcess, guard);
    }

    public static BackendSpec inProcess(InProcessServer server) {
        return new BackendSpec(TransportType.IN_PROCESS, null, null, null, null, null, null, server, null);
    }

    public static BackendSpec stdio(String command, List<String> args, Map<String, String> env) {
        return new BackendSpec(TransportType.STDIO, null, null, command, args, env, null);
    }

    public static BackendSpec http(TransportType type, String url, Map<String, String> headers) {
        return new BackendSpec(type, url, headers, null, null, null, null);
    }
}
