package dev.switchboard.persistence;

import org.junit.jupiter.api.Assumptions;

import java.util.stream.Stream;

/** The databases every persistence test runs on: H2 always, MariaDB when {@code it.mariadb.url} is set. */
public final class DatabaseKinds {

    private DatabaseKinds() {
    }

    public static Stream<TestDatabase.Kind> all() {
        return Stream.of(TestDatabase.Kind.H2, TestDatabase.Kind.MARIADB);
    }

    /** Opens a fresh database; MariaDB is skipped (visibly) only when explicitly switched off with -Dit.mariadb.url= . */
    public static TestDatabase open(TestDatabase.Kind kind) throws Exception {
        if (kind == TestDatabase.Kind.MARIADB) {
            Assumptions.assumeFalse(TestDatabase.mariadbServerUrl().isBlank(),
                    "MariaDB tests switched off (-Dit.mariadb.url is empty)");
        }
        return TestDatabase.create(kind);
    }
}
