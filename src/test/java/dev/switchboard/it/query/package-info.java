/**
 * NL->SQL on the running server: {@code /api/query} and the query dialect over its TCP transport and over the
 * {@code /mcp} WebSocket, with the scripted LLM writing the SQL; the dialect's clients live here.
 */
package dev.switchboard.it.query;
