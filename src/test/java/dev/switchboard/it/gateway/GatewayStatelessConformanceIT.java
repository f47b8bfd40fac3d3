package dev.switchboard.it.gateway;

import dev.switchboard.it.support.SharedEverything;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The official conformance suite's release that covers MCP 2026-07-28 ({@code @modelcontextprotocol/conformance@0.2.0-alpha.12},
 * on the Node 24 that {@code src/test/node-2026} installs) at the 2026-07-28 wire, through the test-only proxy that adds a
 * token: every scenario that revision requires against {@code /mcp/servers/{name}} and directly against the same
 * server-everything (a session-era server: directly, the stateless scenarios fail), none failing only through
 * Switchboard; the generic scenarios against {@code /mcp}. Outcomes in {@code target/gateway-stateless-conformance.md}.
 */
class GatewayStatelessConformanceIT {

    static final String REVISION = "2026-07-28";
    /** The scenarios that need nothing but a server: the others call the suite's own fixture tools, prompts and resources. */
    static final List<String> GENERIC = List.of("tools-list", "resources-list", "prompts-list", "sep-2164-resource-not-found",
            "dns-rebinding-protection", "caching", "http-header-validation", "server-sse-multiple-streams");
    /** Checks of server-stateless that call the suite's fixture tools ({@code test_missing_capability}, ...). */
    static final Set<String> STATELESS_CHECKS_OF_FIXTURES = Set.of("sep-2575-server-rejects-undeclared-capability",
            "sep-2575-missing-capability-http-400", "sep-2575-http-server-no-independent-requests-on-stream",
            "sep-2575-server-no-log-without-loglevel");

    @RegisterExtension
    static final SharedEverything backend = new SharedEverything("conf26");
    @RegisterExtension
    static final TokenProxy proxy = new TokenProxy();

    @Test
    void everyRequiredScenarioFailsThroughThePassthroughOnlyWhereItFailsDirectlyAndTheGenericOnesPassOnTheAggregate()
            throws Exception {
        Map<String, String> through = ConformanceSuite.runRequirements(proxy.url("/mcp/servers/" + backend.name()), REVISION, "passthrough");
        Map<String, String> direct = ConformanceSuite.runRequirements(backend.url(), REVISION, "direct");
        Map<String, String> aggregated = ConformanceSuite.runRequirements(proxy.url("/mcp"), REVISION, "aggregated");
        List<String> statelessFailures = ConformanceSuite.failedChecks(proxy.url("/mcp"), "server-stateless", REVISION, "aggregated");

        StringBuilder report = new StringBuilder("# Conformance 0.2.0-alpha.12, requirements " + REVISION + "\n\n"
                + "server-everything is a session-era server: directly, every scenario that speaks the stateless wire fails.\n\n"
                + "| scenario | through /mcp/servers/{name} | server-everything directly | /mcp |\n| --- | --- | --- | --- |\n");
        List<String> onlyThroughUs = new ArrayList<>();
        for (String scenario : through.keySet()) {
            String viaUs = through.get(scenario);
            String alone = direct.getOrDefault(scenario, "not run");
            report.append("| ").append(scenario).append(" | ").append(viaUs).append(" | ").append(alone).append(" | ")
                    .append(aggregated.getOrDefault(scenario, "not run")).append(" |\n");
            if (!viaUs.startsWith("pass") && alone.startsWith("pass")) {
                onlyThroughUs.add(scenario + ": " + viaUs);
            }
        }
        report.append("\nserver-stateless against /mcp, failed checks: ").append(statelessFailures).append('\n');
        Files.writeString(Paths.get("target", "gateway-stateless-conformance.md"), report);

        assertEquals(List.of(), onlyThroughUs, report::toString);
        List<String> genericFailed = GENERIC.stream().filter(s -> !aggregated.getOrDefault(s, "not run").startsWith("pass")).toList();
        assertEquals(List.of(), genericFailed, report::toString);
        List<String> statelessOwnFailures = statelessFailures.stream().filter(c -> !STATELESS_CHECKS_OF_FIXTURES.contains(c)).toList();
        assertEquals(List.of(), statelessOwnFailures, report::toString);
    }
}
