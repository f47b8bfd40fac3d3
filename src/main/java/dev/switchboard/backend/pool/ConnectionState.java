package dev.switchboard.backend.pool;

/** Where a pooled backend connection stands (seed 004 {@code status}). */
public enum ConnectionState { DISCONNECTED, CONNECTING, CONNECTED, ERROR }
