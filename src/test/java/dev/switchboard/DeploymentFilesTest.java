package dev.switchboard;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code Dockerfile} and the Kubernetes example ({@code docs/kubernetes/switchboard.yaml}) agree with the code:
 * no Docker engine runs where the build does, so this is what keeps them from rotting. Every environment variable
 * they set is one the server reads (a MicroProfile Config key or a {@code server.xml} variable, in its environment
 * form), the ports are {@code server.xml}'s and the cluster's, the probes are MicroProfile Health's, the preStop hook
 * is the file the image carries, and the pod's grace outlasts the drain and Liberty's quiesce.
 */
class DeploymentFilesTest {

    private static final Path DOCKERFILE = Path.of("Dockerfile");
    private static final Path KUBERNETES = Path.of("docs/kubernetes/switchboard.yaml");
    private static final Path SERVER_XML = Path.of("src/main/liberty/config/server.xml");
    /** Liberty's quiesce after SIGTERM: it lets requests in progress run this long at most. */
    private static final Duration LIBERTY_QUIESCE = Duration.ofSeconds(30);

    @Test
    void theImageIsTheOfficialOpenLibertyOneOfTheBuildsVersionWithFeaturesInstalledAtBuild() throws IOException {
        List<String> lines = Files.readAllLines(DOCKERFILE);
        String from = instructions(lines, "FROM").get(0);
        assertEquals("icr.io/appcafe/open-liberty:" + pomProperty("liberty.version") + "-kernel-slim-java17-openj9-ubi", from);
        int serverXml = indexOf(lines, "COPY --chown=1001:0 src/main/liberty/config/server.xml /config/server.xml");
        int features = indexOf(lines, "RUN features.sh");
        assertTrue(serverXml >= 0 && features > serverXml, "features.sh runs after server.xml is in place");
        assertTrue(indexOf(lines, "RUN configure.sh") > features, "configure.sh last");
        for (String copy : instructions(lines, "COPY")) {
            String[] words = copy.split(" ");
            String source = words[words.length - 2];
            assertTrue(source.startsWith("target/") || Files.exists(Path.of(source)), "the image copies " + source);
        }
    }

    @Test
    void theImageExposesTheHttpAndMemberPortsAndSetsOnlyWhatTheServerReads() throws IOException {
        List<String> lines = Files.readAllLines(DOCKERFILE);
        assertEquals(List.of(httpPort() + " " + clusterPort()), instructions(lines, "EXPOSE"));
        Set<String> known = readSettings();
        for (String env : instructions(lines, "ENV")) {
            String name = env.substring(0, env.indexOf('='));
            assertTrue(readBy(known, name), name + " is set by the Dockerfile but read by nothing");
        }
        assertEquals(pomJvmOptions(), Files.readAllLines(Path.of("src/main/docker/jvm.options")),
                "the image gives Hazelcast the module access the cluster ITs give it");
    }

    @Test
    void theKubernetesExampleParsesAndAgreesWithTheCode() throws IOException {
        Map<String, Map<String, Object>> byName = kubernetesObjects();
        Map<String, Object> deployment = byName.get("Deployment/switchboard");
        assertEquals(Integer.valueOf(3), at(deployment, "spec", "replicas"));
        Map<String, Object> pod = at(deployment, "spec", "template", "spec");
        Map<String, Object> container = list(pod, "containers").get(0);

        Map<String, Integer> ports = new HashMap<>();
        list(container, "ports").forEach(port -> ports.put((String) port.get("name"), (Integer) port.get("containerPort")));
        assertEquals(Map.of("http", httpPort(), "hazelcast", clusterPort()), ports);
        assertEquals("/health/ready", at(container, "readinessProbe", "httpGet", "path"));
        assertEquals("/health/live", at(container, "livenessProbe", "httpGet", "path"));
        assertEquals("http", at(container, "readinessProbe", "httpGet", "port"));

        List<?> preStop = at(container, "lifecycle", "preStop", "exec", "command");
        String hook = (String) preStop.get(0);
        assertTrue(Files.readString(DOCKERFILE).contains("src/main/docker/drain.sh " + hook), "the image carries " + hook);

        Map<String, String> env = new HashMap<>();
        list(container, "env").forEach(e -> env.put((String) e.get("name"), String.valueOf(e.get("value"))));
        for (Map<String, Object> source : list(container, "envFrom")) {
            Map<String, Object> secret = byName.get("Secret/" + at(source, "secretRef", "name"));
            Map<String, Object> data = at(secret, "stringData");
            data.forEach((name, value) -> env.put(name, String.valueOf(value)));
        }
        Set<String> known = readSettings();
        List<String> unknown = env.keySet().stream().filter(name -> !readBy(known, name)).sorted().toList();
        assertEquals(List.of(), unknown, "set by the Kubernetes example but read by nothing");
        for (String needed : List.of("DB_URL", "DB_USER", "DB_PASSWORD", "SWITCHBOARD_SECRET_KEYS",
                "SWITCHBOARD_AUDIT_SECRETS", "SWITCHBOARD_DRAIN_TOKEN", "SWITCHBOARD_CLUSTER_KUBERNETES_SERVICE_DNS")) {
            assertTrue(env.containsKey(needed), "a member needs " + needed);
        }

        Map<String, Object> members = byName.get("Service/switchboard-members");
        assertEquals("None", at(members, "spec", "clusterIP"));
        assertEquals(Boolean.TRUE, at(members, "spec", "publishNotReadyAddresses"));
        assertEquals((Object) clusterPort(), list(at(members, "spec"), "ports").get(0).get("port"));
        assertTrue(env.get("SWITCHBOARD_CLUSTER_KUBERNETES_SERVICE_DNS").startsWith("switchboard-members."),
                "Hazelcast asks the headless Service's DNS name");
        assertEquals((Object) at(deployment, "spec", "selector", "matchLabels"), at(members, "spec", "selector"));

        Duration drain = Duration.parse(env.getOrDefault("SWITCHBOARD_DRAIN_TIMEOUT", "PT20S"));
        int grace = at(pod, "terminationGracePeriodSeconds");
        assertTrue(grace >= drain.plus(LIBERTY_QUIESCE).toSeconds(), "a grace of " + grace + " s cut the drain ("
                + drain + ") or Liberty's quiesce short");
        String dataDir = instructions(Files.readAllLines(DOCKERFILE), "ENV").stream()
                .filter(e -> e.startsWith("SWITCHBOARD_DATA_DIR=")).findFirst().orElseThrow().split("=", 2)[1];
        assertEquals(dataDir, list(container, "volumeMounts").get(0).get("mountPath"), "the volume is the data dir");
    }

    @Test
    void aVariableNoCodeReadsIsCaughtAndOnesItReadsAreNot() throws IOException {
        Set<String> known = readSettings();
        assertFalse(readBy(known, "SWITCHBOARD_NO_SUCH_SETTING"));
        assertFalse(readBy(known, "SWITCHBOARD_DRAIN_TIMEOUTS"));
        assertTrue(readBy(known, "SWITCHBOARD_DRAIN_TIMEOUT"), "a @ConfigProperty");
        assertTrue(readBy(known, "DB_URL"), "a server.xml variable");
        assertTrue(readBy(known, "SWITCHBOARD_CLUSTER_KUBERNETES_SERVICE_DNS"), "a key read through ConfigProvider");
        assertTrue(readBy(known, "SWITCHBOARD_TENANT_ACME_ALLOWED_NETWORKS"), "a key under a prefix the code reads");
    }

    /**
     * Every key the server reads: {@code server.xml}'s variables and each string literal of the main code that looks
     * like a configuration key (a literal ending in a dot is a prefix the code completes).
     */
    private static Set<String> readSettings() throws IOException {
        Set<String> keys = new TreeSet<>();
        Matcher variable = Pattern.compile("<variable name=\"([^\"]+)\"").matcher(Files.readString(SERVER_XML));
        while (variable.find()) {
            keys.add(variable.group(1));
        }
        Pattern literal = Pattern.compile("\"((?:switchboard|jwt|llm|query|http|mp)\\.[a-z0-9.\\-]*)\"");
        try (Stream<Path> sources = Files.walk(Path.of("src/main/java"))) {
            for (Path source : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher key = literal.matcher(Files.readString(source));
                while (key.find()) {
                    keys.add(key.group(1));
                }
            }
        }
        return keys;
    }

    /** MicroProfile Config's environment form of a key: upper case, everything else than letters and digits as _. */
    private static boolean readBy(Set<String> keys, String environmentName) {
        for (String key : keys) {
            String form = key.toUpperCase().replaceAll("[^A-Z0-9]", "_");
            if (key.endsWith(".") ? environmentName.startsWith(form) : environmentName.equals(form)) {
                return true;
            }
        }
        return false;
    }

    private static int httpPort() throws IOException {
        Matcher port = Pattern.compile("<variable name=\"http.port\" defaultValue=\"(\\d+)\"/>").matcher(Files.readString(SERVER_XML));
        assertTrue(port.find());
        return Integer.parseInt(port.group(1));
    }

    /** The Hazelcast port a member listens on unless told otherwise ({@code ClusterSettings.DEFAULT_PORT}). */
    private static int clusterPort() throws IOException {
        Matcher port = Pattern.compile("DEFAULT_PORT = (\\d+);")
                .matcher(Files.readString(Path.of("src/main/java/dev/switchboard/cluster/ClusterSettings.java")));
        assertTrue(port.find());
        return Integer.parseInt(port.group(1));
    }

    private static String pomProperty(String name) throws IOException {
        Matcher value = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)<").matcher(Files.readString(Path.of("pom.xml")));
        assertTrue(value.find(), name);
        return value.group(1);
    }

    /**
     * The module access options of the cluster ITs' member A in the pom (its {@code -D} tuning of Hazelcast's join for
     * members on one host is the tests' own, not the image's).
     */
    private static List<String> pomJvmOptions() throws IOException {
        String pom = Files.readString(Path.of("pom.xml"));
        String member = pom.substring(pom.indexOf("<serverName>switchboard-cluster-a</serverName>"));
        member = member.substring(member.indexOf("<jvmOptions>"), member.indexOf("</jvmOptions>"));
        List<String> options = new ArrayList<>();
        Matcher param = Pattern.compile("<param>([^<]+)</param>").matcher(member);
        while (param.find()) {
            if (param.group(1).startsWith("--add-")) {
                options.add(param.group(1));
            }
        }
        return options;
    }

    /** The arguments of each Dockerfile instruction of this kind, in order. */
    private static List<String> instructions(List<String> lines, String kind) {
        return lines.stream().filter(line -> line.startsWith(kind + " ")).map(line -> line.substring(kind.length() + 1).strip()).toList();
    }

    private static int indexOf(List<String> lines, String line) {
        return lines.indexOf(line);
    }

    /** Each object of the example by {@code Kind/name}. */
    private static Map<String, Map<String, Object>> kubernetesObjects() throws IOException {
        Map<String, Map<String, Object>> byName = new HashMap<>();
        try (Reader reader = Files.newBufferedReader(KUBERNETES)) {
            for (Object document : new Yaml().loadAll(reader)) {
                @SuppressWarnings("unchecked")
                Map<String, Object> object = (Map<String, Object>) document;
                byName.put(object.get("kind") + "/" + at(object, "metadata", "name"), object);
            }
        }
        assertEquals(Set.of("Secret/switchboard-keys", "Secret/switchboard-db", "Service/switchboard-members",
                "Service/switchboard", "Deployment/switchboard"), byName.keySet());
        return byName;
    }

    @SuppressWarnings("unchecked")
    private static <T> T at(Map<String, Object> object, String... path) {
        Object current = object;
        for (String step : path) {
            assertTrue(current instanceof Map, "no " + String.join(".", path));
            current = ((Map<String, Object>) current).get(step);
        }
        return (T) current;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Map<String, Object> object, String key) {
        return (List<Map<String, Object>>) object.get(key);
    }
}
