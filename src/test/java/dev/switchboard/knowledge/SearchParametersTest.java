package dev.switchboard.knowledge;

import dev.switchboard.platform.ApiException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SearchParametersTest {

    @Test
    void theSeedsDefaultsApplyWhenNumbersAreLeftOut() {
        assertEquals(new SearchParameters("mcp", 3, 0.1), SearchParameters.parse("mcp", null, null));
        assertEquals(new SearchParameters("mcp", 50, 0.0), SearchParameters.parse("mcp", " 50", "0"));
    }

    @Test
    void badInputIsRefusedNamingTheParameter() {
        assertTrue(refusal(null, null, null).contains("'q'"));
        assertTrue(refusal("  ", null, null).contains("'q'"));
        assertTrue(refusal("q".repeat(1001), null, null).contains("longer than 1000"));
        for (String limit : new String[] {"-1", "0", "51", "three", "2.5"}) {
            assertTrue(refusal("mcp", limit, null).contains("'limit'"), limit);
        }
        for (String minScore : new String[] {"1.5", "-0.1", "NaN", "high"}) {
            assertTrue(refusal("mcp", null, minScore).contains("'minScore'"), minScore);
        }
    }

    /** The status and code are the API's (400, checked end to end in KnowledgeIT); here the message. */
    private static String refusal(String q, String limit, String minScore) {
        return assertThrows(ApiException.class, () -> SearchParameters.parse(q, limit, minScore)).getMessage();
    }
}
