package dev.switchboard.gateway.http;

import dev.switchboard.gateway.GatewaySettings;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Origin allow list and Accept negotiation of the Streamable HTTP endpoint. */
class HttpRulesTest {

    @Test
    void localOriginsAndRequestsWithoutOnePassByDefault() {
        OriginPolicy policy = new OriginPolicy(GatewaySettings.LOCAL_ORIGINS);
        assertTrue(policy.allows(null));
        assertTrue(policy.allows("http://localhost:6274"));
        assertTrue(policy.allows("https://LOCALHOST"));
        assertTrue(policy.allows("http://127.0.0.1:3000"));
        assertTrue(policy.allows("http://[::1]:8080"));
        assertFalse(policy.allows("http://evil.example"));
        assertFalse(policy.allows("http://localhost.evil.example"));
        assertFalse(policy.allows("null"));
        assertFalse(policy.allows("not a uri"));
    }

    @Test
    void configuredOriginsMatchPortsWhenTheyNameOne() {
        OriginPolicy policy = new OriginPolicy(List.of("https://console.example:8443", "https://app.example"));
        assertTrue(policy.allows("https://console.example:8443"));
        assertFalse(policy.allows("https://console.example"));
        assertTrue(policy.allows("https://app.example:9000"));
        assertFalse(policy.allows("http://app.example"));
        assertFalse(policy.allows("http://localhost"));
        assertTrue(new OriginPolicy(List.of("*")).allows("http://anything.example"));
    }

    @Test
    void acceptHeaderDecidesBetweenJsonAndAStream() {
        assertEquals(new AcceptHeader(true, true), AcceptHeader.parse("application/json, text/event-stream"));
        assertEquals(new AcceptHeader(true, true), AcceptHeader.parse(null));
        assertEquals(new AcceptHeader(true, true), AcceptHeader.parse("*/*"));
        assertEquals(new AcceptHeader(false, true), AcceptHeader.parse("text/event-stream"));
        assertEquals(new AcceptHeader(true, false), AcceptHeader.parse("application/json"));
        assertTrue(AcceptHeader.parse("text/html").acceptsNothingWeSend());
    }
}
