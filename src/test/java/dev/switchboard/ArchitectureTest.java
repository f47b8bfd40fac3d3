package dev.switchboard;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rooms and the allowed arrows between them, as docs/architecture.md writes them down ("Allowed arrows"): every
 * dependency of a main class on another room is in its room's row, the rooms are free of cycles, every room is in the
 * table, and every room's {@code package-info.java} says in its "May use:" what the table says. The table is read
 * from the doc itself, so the two cannot drift apart.
 */
class ArchitectureTest {

    private static final String ROOT = "dev.switchboard";
    private static final Path DOC = Path.of("docs/architecture.md");
    private static final Path SOURCES = Path.of("src/main/java/dev/switchboard");
    private static final Pattern CODE = Pattern.compile("`([a-z]+)`");
    private static final Pattern MAY_USE = Pattern.compile("May use:(.*?)\\(the allowed arrows", Pattern.DOTALL);
    private static final Pattern JAVADOC_CODE = Pattern.compile("\\{@code ([a-z]+)}");

    private static JavaClasses main;
    private static Map<String, Set<String>> arrows;

    @BeforeAll
    static void read() throws IOException {
        main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages(ROOT);
        arrows = allowedArrows(Files.readAllLines(DOC));
    }

    @Test
    void everyDependencyBetweenRoomsIsAnAllowedArrow() {
        classes().that().resideInAPackage(ROOT + "..").should(useOnlyAllowedRooms(arrows)).check(main);
    }

    @Test
    void roomsAreFreeOfCycles() {
        slices().matching(ROOT + ".(*)..").namingSlices("room $1").should().beFreeOfCycles().check(main);
    }

    /** The check can fail, and says where: without the arrow gateway -> sql, the WebSocket's use of the dialect fails. */
    @Test
    void aDependencyOutsideTheTableFailsNamingTheClassAndTheArrow() {
        Map<String, Set<String>> narrower = new HashMap<>(arrows);
        narrower.put("gateway", arrows.get("gateway").stream().filter(r -> !r.equals("sql")).collect(Collectors.toSet()));
        AssertionError failure = assertThrows(AssertionError.class,
                () -> classes().that().resideInAPackage(ROOT + "..").should(useOnlyAllowedRooms(narrower)).check(main));
        assertTrue(failure.getMessage().contains("gateway -> sql is not an allowed arrow"), failure.getMessage());
        assertTrue(failure.getMessage().contains("dev.switchboard.gateway.ws.McpSocket"), failure.getMessage());
    }

    @Test
    void theTableNamesEveryRoomAndNothingElse() throws IOException {
        Set<String> named = new TreeSet<>(arrows.keySet());
        arrows.values().forEach(named::addAll);
        assertEquals(rooms(), named, "the rooms under " + SOURCES + " and the rooms of " + DOC + " \"Allowed arrows\"");
        assertEquals(rooms(), new TreeSet<>(arrows.keySet()), "every room has a row in " + DOC + " \"Allowed arrows\"");
    }

    @Test
    void everyRoomSaysInItsPackageInfoWhatItMayUse() throws IOException {
        for (String room : rooms()) {
            Path info = SOURCES.resolve(room).resolve("package-info.java");
            assertTrue(Files.exists(info), info + " says what the room owns and may use");
            Matcher mayUse = MAY_USE.matcher(Files.readString(info));
            assertTrue(mayUse.find(), info + " has a \"May use: ... (the allowed arrows\" sentence");
            Set<String> said = new TreeSet<>();
            Matcher code = JAVADOC_CODE.matcher(mayUse.group(1));
            while (code.find()) {
                said.add(code.group(1));
            }
            assertEquals(new TreeSet<>(arrows.get(room)), said, info + " and the row of '" + room + "' in " + DOC);
        }
    }

    private static ArchCondition<JavaClass> useOnlyAllowedRooms(Map<String, Set<String>> allowed) {
        return new ArchCondition<>("use only the rooms " + DOC + " allows their room") {
            @Override
            public void check(JavaClass item, ConditionEvents events) {
                String from = room(item.getPackageName());
                for (Dependency dependency : item.getDirectDependenciesFromSelf()) {
                    String to = room(dependency.getTargetClass().getBaseComponentType().getPackageName());
                    if (to == null || to.equals(from) || allowed.getOrDefault(from, Set.of()).contains(to)) {
                        continue;
                    }
                    events.add(SimpleConditionEvent.violated(dependency, from + " -> " + to
                            + " is not an allowed arrow (" + DOC + ", \"Allowed arrows\"): " + dependency.getDescription()));
                }
            }
        };
    }

    /** The room of a package: its first segment below {@value #ROOT}; null outside the application. */
    private static String room(String packageName) {
        if (!packageName.startsWith(ROOT + ".")) {
            return null;
        }
        String rest = packageName.substring(ROOT.length() + 1);
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    private static Set<String> rooms() throws IOException {
        try (Stream<Path> children = Files.list(SOURCES)) {
            return children.filter(Files::isDirectory).map(p -> p.getFileName().toString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /** The rows {@code | `room` | `a`, `b` |} of the table under "## Allowed arrows". */
    static Map<String, Set<String>> allowedArrows(List<String> doc) {
        Map<String, Set<String>> rows = new LinkedHashMap<>();
        boolean inSection = false;
        for (String line : doc) {
            if (line.startsWith("## ")) {
                inSection = line.equals("## Allowed arrows");
                continue;
            }
            if (!inSection || !line.startsWith("| `")) {
                continue;
            }
            String[] cells = line.split("\\|");
            Matcher room = CODE.matcher(cells[1]);
            if (!room.find()) {
                continue;
            }
            Set<String> uses = new LinkedHashSet<>();
            Matcher use = CODE.matcher(cells[2]);
            while (use.find()) {
                uses.add(use.group(1));
            }
            rows.put(room.group(1), uses);
        }
        if (rows.isEmpty()) {
            throw new IllegalStateException(DOC + " has no \"## Allowed arrows\" table");
        }
        return rows;
    }
}
