package dev.switchboard.gateway;

/**
 * Resumable streams shared by the members of a cluster: provided by the cluster room when cluster mode is on (there is
 * no such bean on a single instance, which keeps its streams in memory). Its GET streams are {@link ServerStreams}:
 * every member appends a session's server-initiated messages to them, and any member serves a GET or a resumption.
 */
public interface SharedSseStreams extends SseStreams, ServerStreams {
}
