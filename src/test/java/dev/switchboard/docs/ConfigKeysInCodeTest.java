package dev.switchboard.docs;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigKeysInCodeTest {

    @Test
    void findsInjectedPropertiesAlsoThroughAnotherClassesConstant() {
        ConfigKeysInCode code = new ConfigKeysInCode();
        code.add("a/Limits.java", "class Limits { public static final String PROPERTY = \"query.limit.x\"; }");
        code.add("a/Bean.java", """
                class Bean {
                    // @ConfigProperty(name = "in.a.comment")
                    @ConfigProperty(name = "switchboard.pool.size", defaultValue = "a)b") int size;
                    @ConfigProperty(defaultValue = "1",
                            name = Limits.PROPERTY) long limit;
                }
                """);

        assertEquals(List.of("switchboard.pool.size a/Bean.java:3", "query.limit.x a/Bean.java:4"), found(code));
    }

    @Test
    void findsFaultTolerancePoliciesButNotTimerCallbacks() {
        ConfigKeysInCode code = new ConfigKeysInCode();
        code.add("c/Calls.java", """
                package dev.x;
                import org.eclipse.microprofile.faulttolerance.Retry;
                import org.eclipse.microprofile.faulttolerance.Timeout;
                class Calls {
                    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
                    @Retry(maxRetries = 2, retryOn = {IOException.class})
                    @Override
                    public String fetch(URI uri) { return ""; }
                }
                """);
        code.add("c/Timer.java", """
                package dev.x;
                import jakarta.ejb.Timeout;
                class Timer {
                    @Timeout
                    void fire() { }
                }
                """);

        assertEquals(List.of("dev.x.Calls/fetch/Timeout/<*> c/Calls.java:5", "dev.x.Calls/fetch/Retry/<*> c/Calls.java:6"),
                found(code));
    }

    @Test
    void followsConstantsLocalsAndParametersOfConfigLookups() {
        ConfigKeysInCode code = new ConfigKeysInCode();
        code.add("b/Settings.java", """
                class Settings {
                    static final String PREFIX = "switchboard.resilience.";
                    record Lookup(Config config, String backendName) {
                        Optional<Integer> value(String key) {
                            Optional<Integer> own = config.getOptionalValue(PREFIX + "backend." + backendName + "." + key, Integer.class);
                            return own.isPresent() ? own : config.getOptionalValue(PREFIX + key, Integer.class);
                        }
                    }
                    static int of(Lookup lookup) { return lookup.value("breaker.window").orElse(10); }
                    String entry(java.util.Map.Entry<String, String> e) { return e.getValue(); }
                }
                """);
        code.add("b/Producer.java", """
                class Producer {
                    @Inject Config config;
                    void routes(String name) {
                        String prefix = "llm.provider." + name + ".";
                        String url = config.getValue(prefix + "base-url", String.class);
                        String fixed = ConfigProvider.getConfig().getOptionalValue("llm.extra", String.class).orElse("");
                        String token = System.getenv("SWITCHBOARD_TOKEN");
                        String other = System.getenv().getOrDefault("SWITCHBOARD_URL", "x");
                    }
                }
                """);

        assertEquals(List.of(
                "switchboard.resilience.backend.<*>.breaker.window b/Settings.java:5",
                "switchboard.resilience.breaker.window b/Settings.java:6",
                "llm.provider.<*>.base-url b/Producer.java:5",
                "llm.extra b/Producer.java:6",
                "SWITCHBOARD_TOKEN b/Producer.java:7",
                "SWITCHBOARD_URL b/Producer.java:8"), found(code));
    }

    @Test
    void aKeyReadButNotDocumentedAndOneDocumentedButNotReadAreEachNamedWithTheSideThatLacksIt() {
        Map<String, Integer> documented = ConfigReference.documentedKeys("""
                | key | default | meaning |
                | --- | --- | --- |
                | `switchboard.pool.size` | `4` | connections |
                | `DB_USER` / `DB_PASSWORD` | `x` | the account |
                | `switchboard.resilience.backend.<name>.<key>` | | one backend's own |
                | `switchboard.gone` | `1` | no longer read |
                """);
        List<ConfigKeysInCode.ReadKey> read = List.of(
                new ConfigKeysInCode.ReadKey("switchboard.pool.size", "A.java", 3),
                new ConfigKeysInCode.ReadKey("DB_USER", "server.xml", 7),
                new ConfigKeysInCode.ReadKey("DB_PASSWORD", "server.xml", 8),
                new ConfigKeysInCode.ReadKey("switchboard.resilience.backend.<*>.breaker.window", "B.java", 5),
                new ConfigKeysInCode.ReadKey("switchboard.pool.new", "A.java", 9));

        assertEquals(List.of(
                "configuration key 'switchboard.pool.new' is read by the code (A.java:9) but not documented in docs/c.md",
                "configuration key 'switchboard.gone' is documented in docs/c.md:6 but not read by the code"),
                ConfigReference.problems(read, documented, "docs/c.md"));
    }

    @Test
    void placeholdersStandForAnyPartOnEitherSide() {
        assertTrue(ConfigReference.sameKey("llm.provider.<name>.models", "llm.provider.<*>.models"));
        assertTrue(ConfigReference.sameKey("switchboard.resilience.backend.<name>.<key>",
                "switchboard.resilience.backend.<*>.bulkhead.max-wait"));
        assertFalse(ConfigReference.sameKey("llm.provider.<name>.models", "llm.provider.<*>.api-key"));
        assertFalse(ConfigReference.sameKey("switchboard.resilience.bogus", "switchboard.resilience.breaker.window"));
    }

    private static List<String> found(ConfigKeysInCode code) {
        return code.keys().stream().map(k -> k.key() + " " + k.where()).toList();
    }
}
