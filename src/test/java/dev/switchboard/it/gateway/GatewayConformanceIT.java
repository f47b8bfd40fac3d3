package dev.switchboard.it.gateway;

import dev.switchboard.it.support.SharedEverything;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The official conformance suite ({@code @modelcontextprotocol/conformance@0.1.13}) against {@code /mcp}: every generic
 * server scenario. The suite cannot send a token, so it talks through a test-only proxy that adds one. The outcome of
 * each scenario is written to {@code target/gateway-conformance.md}. A shared server-everything backend sits behind
 * the endpoint, so resources, prompts and logging have something to route to.
 */
class GatewayConformanceIT {

    private static final List<String> MUST_PASS = List.of("server-initialize", "ping", "tools-list",
            "dns-rebinding-protection", "server-sse-multiple-streams", "logging-set-level", "resources-list",
            "prompts-list");

    @RegisterExtension
    static final SharedEverything backend = new SharedEverything("conformance");
    @RegisterExtension
    static final TokenProxy proxy = new TokenProxy();

    @Test
    void genericServerScenarios() throws Exception {
        Map<String, String> outcomes = new LinkedHashMap<>();
        List<String> failedThatMustPass = new ArrayList<>();
        for (String scenario : MUST_PASS) {
            String outcome = ConformanceSuite.run(proxy.url("/mcp"), scenario, "aggregated");
            outcomes.put(scenario, outcome);
            if (!outcome.startsWith("pass")) {
                failedThatMustPass.add(scenario + ": " + outcome);
            }
        }
        StringBuilder report = new StringBuilder("# Conformance 0.1.13 against /mcp\n\n| scenario | outcome |\n| --- | --- |\n");
        outcomes.forEach((scenario, outcome) -> report.append("| ").append(scenario).append(" | ").append(outcome).append(" |\n"));
        Files.writeString(Paths.get("target", "gateway-conformance.md"), report);
        assertEquals(List.of(), failedThatMustPass, report::toString);
    }
}
