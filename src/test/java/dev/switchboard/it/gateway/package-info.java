/**
 * The gateway on the wire: {@code /mcp} over Streamable HTTP, legacy HTTP+SSE, WebSocket and the stdio launcher,
 * {@code /mcp/servers/{name}}, sessions and resumable streams, identity, tenant policy, resilience and the trace,
 * audit of gateway calls (durable through a {@code kill -9}, one chain with writers in two processes), schema
 * validation of every message both ways, and the official conformance suite. The
 * helpers only these tests use live here: the raw client peers ({@link dev.switchboard.it.gateway.McpClientPeer}),
 * the recording backend tap ({@link dev.switchboard.it.gateway.TappedBackend}), the conformance suite and its proxy.
 */
package dev.switchboard.it.gateway;
