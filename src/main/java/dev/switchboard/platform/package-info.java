/**
 * The plumbing every room stands on: the JAX-RS application, the REST error shape and its mappers, the Flyway
 * migrator, health checks, the drain on stop ({@code platform.drain}), the startup banner, the process's one JSON-P
 * provider ({@code platform.json}) and
 * server-sent-event reading ({@code platform.sse}).
 * <p>
 * May use: no other room (the allowed arrows of docs/architecture.md, checked by {@code ArchitectureTest}).
 */
package dev.switchboard.platform;
