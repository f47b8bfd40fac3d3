package dev.switchboard.mcp;

/** The error codes JSON-RPC 2.0 itself defines, for every room that answers or records a JSON-RPC error. */
public final class JsonRpcErrorCodes {

    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;

    private JsonRpcErrorCodes() {
    }
}
