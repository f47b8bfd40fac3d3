package dev.switchboard.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/configuration.md documents exactly the keys Switchboard reads: MicroProfile Config in {@code src/main/java},
 * the variables of {@code server.xml}, and the environment of the stdio launcher in {@code tools/}.
 */
class ConfigurationReferenceTest {

    private static final Path ROOT = Path.of("").toAbsolutePath();
    private static final String REFERENCE = "docs/configuration.md";
    private static final String SERVER_XML = "src/main/liberty/config/server.xml";
    private static final Pattern SERVER_VARIABLE = Pattern.compile("<variable\\s+name=\"([^\"]+)\"");

    @Test
    void theReferenceDocumentsEveryKeyTheCodeReadsAndNoOther() throws IOException {
        List<ConfigKeysInCode.ReadKey> read = readKeys();
        assertTrue(read.size() > 80, "the keys of " + ROOT + "/src/main/java should be found, got " + read);
        Map<String, Integer> documented = ConfigReference.documentedKeys(Files.readString(ROOT.resolve(REFERENCE)));

        List<String> problems = ConfigReference.problems(read, documented, REFERENCE);

        assertTrue(problems.isEmpty(), problems.size() + " differences between the code and " + REFERENCE + ":\n"
                + String.join("\n", problems));
    }

    private static List<ConfigKeysInCode.ReadKey> readKeys() throws IOException {
        ConfigKeysInCode code = new ConfigKeysInCode();
        for (String folder : List.of("src/main/java", "tools")) {
            try (Stream<Path> walk = Files.walk(ROOT.resolve(folder))) {
                for (Path file : walk.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                    code.add(ROOT.relativize(file).toString(), Files.readString(file));
                }
            }
        }
        List<ConfigKeysInCode.ReadKey> keys = new ArrayList<>(code.keys());
        String serverXml = Files.readString(ROOT.resolve(SERVER_XML));
        Matcher variable = SERVER_VARIABLE.matcher(serverXml);
        while (variable.find()) {
            int line = TextLines.lineOf(serverXml, variable.start());
            keys.add(new ConfigKeysInCode.ReadKey(variable.group(1), SERVER_XML, line));
        }
        return keys;
    }
}
