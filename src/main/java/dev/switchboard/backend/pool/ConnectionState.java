package dev.switchboard.backend.pool;

/** Where a pooled backend connection stands (the MCP client system's {@code status}). */
public enum ConnectionState { DISCONNECTED, CONNECTING, CONNECTED, ERROR }
