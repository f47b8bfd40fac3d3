package dev.switchboard.mcp;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeaderValueTest {

    @Test
    void visibleAsciiTravelsAsItIsAndEverythingElseEncodedAndBack() {
        assertEquals("weather__get-forecast", HeaderValue.encode("weather__get-forecast"));
        for (String value : List.of("Grüße", " padded ", "", "line\nbreak", "=?base64?looks-encoded?=", "日本")) {
            String header = HeaderValue.encode(value);
            assertTrue(header.startsWith("=?base64?") && header.chars().allMatch(c -> c > 0x20 && c < 0x7f), header);
            assertEquals(Optional.of(value), HeaderValue.decode(header), value);
        }
        assertEquals(Optional.empty(), HeaderValue.decode("=?base64?/w==?="), "not UTF-8");
    }
}
