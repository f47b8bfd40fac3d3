/**
 * Tenants and their policy bindings: tool allowlists, rate limits, retry rules, idempotent results, and
 * {@link dev.switchboard.policy.CallAdmission}, a policy's verdict on one call for the gateway and the chat loop.
 * <p>
 * May use: {@code platform}, {@code security} (the allowed arrows of docs/architecture.md, checked by {@code
 * ArchitectureTest}).
 */
package dev.switchboard.policy;
