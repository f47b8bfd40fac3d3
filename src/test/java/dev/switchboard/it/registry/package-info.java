/**
 * What the server knows about: MCP servers and assistants through the REST API (ownership, validation, secrets),
 * the built-in servers, and connections to real backends in every transport.
 */
package dev.switchboard.it.registry;
