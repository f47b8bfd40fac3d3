package dev.switchboard.persistence;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import com.mysql.cj.jdbc.MysqlDataSource;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;

import javax.sql.DataSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A fresh database of one kind, migrated by the product's Flyway scripts, with an EntityManagerFactory
 * over the product's entities. MariaDB databases are created here and dropped on close.
 */
public final class TestDatabase implements AutoCloseable {

    public enum Kind { H2, MARIADB }

    private final Kind kind;
    private final String url;
    private final String user;
    private final String password;
    private final String databaseName;
    private EntityManagerFactory emf;

    private TestDatabase(Kind kind, String url, String user, String password, String databaseName) {
        this.kind = kind;
        this.url = url;
        this.user = user;
        this.password = password;
        this.databaseName = databaseName;
    }

    /** The MariaDB server URL the tests use, or empty when not configured. */
    public static String mariadbServerUrl() {
        return System.getProperty("it.mariadb.url", "");
    }

    public static TestDatabase create(Kind kind) throws SQLException {
        String name = "sbtest_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        TestDatabase db;
        if (kind == Kind.H2) {
            db = new TestDatabase(kind, "jdbc:h2:mem:" + name + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE;NON_KEYWORDS=VALUE,KEY;DB_CLOSE_DELAY=-1",
                    "sa", "", name);
        } else {
            String server = mariadbServerUrl();
            try (Connection c = DriverManager.getConnection(server, "root", "")) {
                c.createStatement().execute("CREATE DATABASE " + name + " CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
            }
            db = new TestDatabase(kind, server + name, "root", "", name);
        }
        db.migrate();
        return db;
    }

    private void migrate() {
        Flyway.configure().dataSource(url, user, password).locations("classpath:db/migration").load().migrate();
        openFactory();
    }

    /** A new factory, as a restarted server would build it: nothing carried over in memory. */
    public void reopen() {
        emf.close();
        openFactory();
    }

    private void openFactory() {
        emf = Persistence.createEntityManagerFactory("switchboard-test", Map.of(
                "eclipselink.persistencexml", "META-INF/persistence-test.xml",
                "jakarta.persistence.jdbc.url", url,
                "jakarta.persistence.jdbc.user", user,
                "jakarta.persistence.jdbc.password", password));
    }

    public Kind kind() {
        return kind;
    }

    public Connection jdbc() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    /** A new data source of the database's own driver, as a second instance on the same database would have. */
    public DataSource dataSource() {
        if (kind == Kind.H2) {
            JdbcDataSource h2 = new JdbcDataSource();
            h2.setURL(url);
            h2.setUser(user);
            h2.setPassword(password);
            return h2;
        }
        MysqlDataSource mysql = new MysqlDataSource();
        mysql.setURL(url);
        mysql.setUser(user);
        mysql.setPassword(password);
        return mysql;
    }

    /** Runs the work in one transaction and commits it. */
    public <T> T inTransaction(Function<EntityManager, T> work) {
        EntityManager em = emf.createEntityManager();
        try {
            em.getTransaction().begin();
            T result = work.apply(em);
            em.getTransaction().commit();
            return result;
        } finally {
            if (em.getTransaction().isActive()) {
                em.getTransaction().rollback();
            }
            em.close();
        }
    }

    public void run(Consumer<EntityManager> work) {
        inTransaction(em -> {
            work.accept(em);
            return null;
        });
    }

    @Override
    public void close() throws SQLException {
        if (emf != null) {
            emf.close();
        }
        if (kind == Kind.MARIADB) {
            try (Connection c = DriverManager.getConnection(mariadbServerUrl(), "root", "")) {
                c.createStatement().execute("DROP DATABASE IF EXISTS " + databaseName);
            }
        } else {
            try (Connection c = jdbc()) {
                c.createStatement().execute("SHUTDOWN");
            }
        }
    }
}
