/**
 * Cluster mode ({@code switchboard.cluster.members}, docs/cluster.md): the embedded Hazelcast member of this instance,
 * started with the application and shut down with it, and the Hazelcast implementations of the other rooms' shared
 * state (rate-limit buckets, idempotency claims, sign-in tallies, news of edited servers, the {@code /mcp} SSE streams,
 * conversation events) and the hand-over of clients' answers and cancellations to the member holding the request
 * ({@code ClusterClientMessages}). Without the setting every bean of this room is vetoed at start
 * ({@link dev.switchboard.cluster.ClusterModeExtension}), so a single instance runs the rooms' in-memory
 * implementations and never starts Hazelcast.
 * <p>
 * May use: {@code platform}, {@code security}, {@code mcp}, {@code policy}, {@code backend}, {@code gateway},
 * {@code chat} (the allowed arrows of docs/architecture.md, checked by {@code ArchitectureTest}).
 */
package dev.switchboard.cluster;
