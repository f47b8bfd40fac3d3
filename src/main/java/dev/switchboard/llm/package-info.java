/**
 * The OpenAI-compatible LLM provider client: blocking and streaming calls, stream assembly for both tool-call
 * shapes, model routes and the provider's circuit breaker.
 * <p>
 * May use: {@code platform} (the allowed arrows of docs/architecture.md, checked by {@code ArchitectureTest}).
 */
package dev.switchboard.llm;
