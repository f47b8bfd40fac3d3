package dev.switchboard.it.platform;

import dev.switchboard.it.support.Api;
import jakarta.json.Json;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/audit}: admins only, validated filters, tenant boundaries, chain verification. */
class AuditApiIT {

    @Test
    void adminsSearchAndVerify() {
        String admin = Api.adminToken();
        assertTrue(Api.get("/api/audit?limit=5", admin).expect(200).json().containsKey("data"));
        var verify = Api.get("/api/audit/verify", admin).expect(200).json();
        assertTrue(verify.getBoolean("valid"), verify.toString());
        assertEquals("default", verify.getString("tenant"));
        var byInput = Api.post("/api/audit/search-by-input", admin, Json.createObjectBuilder()
                .add("input", Json.createObjectBuilder().add("message", "never sent")).build()).expect(200).json();
        assertEquals(0, byInput.getJsonArray("data").size());
    }

    @Test
    void badFiltersAndOutsidersAreRefused() {
        String admin = Api.adminToken();
        assertEquals("invalid_limit", Api.get("/api/audit?limit=0", admin).expect(400).errorCode());
        assertEquals("invalid_limit", Api.get("/api/audit?limit=501", admin).expect(400).errorCode());
        assertEquals("invalid_time", Api.get("/api/audit?from=yesterday", admin).expect(400).errorCode());
        assertEquals("invalid_cursor", Api.get("/api/audit?cursor=abc", admin).expect(400).errorCode());
        assertEquals("missing_field", Api.post("/api/audit/search-by-input", admin, Json.createObjectBuilder().build()).expect(400).errorCode());
        assertEquals(403, Api.get("/api/audit", Api.newUser("default")).status(), "users do not read the audit trail");
        assertEquals(401, Api.get("/api/audit", null).status());
    }
}
