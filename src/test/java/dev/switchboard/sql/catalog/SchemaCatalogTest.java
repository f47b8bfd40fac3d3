package dev.switchboard.sql.catalog;

import dev.switchboard.persistence.TestDatabase;
import dev.switchboard.sql.DemoQueryDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The catalog describes the demo database alike on H2 and MariaDB, in the seed's terms. */
class SchemaCatalogTest {

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void usersTableAsTheSeedShowsIt(TestDatabase.Kind kind) throws Exception {
        try (DemoQueryDatabase db = DemoQueryDatabase.open(kind)) {
            SchemaCatalog catalog = new SchemaCatalog(db.source(), SchemaCatalog.DEFAULT_TTL, Clock.systemUTC());
            assertEquals(Set.of("departments", "users", "user_profiles", "employees", "products", "orders", "order_items", "login_logs"),
                    catalog.tableNames());
            TableInfo users = catalog.table("USERS").orElseThrow();
            assertEquals("users", users.name());
            assertEquals("用户信息表", users.comment());
            if (kind == TestDatabase.Kind.MARIADB) {
                assertEquals("InnoDB", users.engine());
                assertEquals("utf8mb4", users.charset());
            }
            assertEquals(new ColumnInfo("id", "bigint", false, "", "用户ID", true, true), users.columns().get(0));
            assertEquals(new ColumnInfo("name", "varchar(100)", false, "", "用户姓名", false, false), users.columns().get(1));
            assertEquals(new ColumnInfo("email", "varchar(255)", false, "", "邮箱地址", false, false), users.columns().get(2));
            assertEquals(new ColumnInfo("phone", "varchar(20)", true, "", "手机号码", false, false), users.columns().get(3));
            assertEquals(new ColumnInfo("status", "tinyint", false, "1", "状态：1正常，0禁用", false, false), users.columns().get(4));
            assertEquals(new ColumnInfo("created_at", "datetime", false, "CURRENT_TIMESTAMP", "注册时间", false, false), users.columns().get(5));
            assertEquals(List.of(
                    new IndexInfo("PRIMARY", "PRIMARY", List.of("id"), true),
                    new IndexInfo("idx_email", "UNIQUE", List.of("email"), true),
                    new IndexInfo("idx_users_created", "INDEX", List.of("created_at"), false)), users.indexes());
            assertEquals(List.of(), users.foreignKeys());
            assertTrue(users.relationships().contains(new Relationship("one_to_many", "users", "id", "orders", "user_id", Relationship.FOREIGN_KEY)));
            assertTrue(users.relationships().contains(new Relationship("one_to_one", "users", "id", "user_profiles", "user_id", Relationship.FOREIGN_KEY)));
            assertTrue(users.relationships().contains(new Relationship("one_to_many", "users", "id", "employees", "user_id", Relationship.NAMING)));
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void keysDefaultsAndRelationshipsOfTheOtherTables(TestDatabase.Kind kind) throws Exception {
        try (DemoQueryDatabase db = DemoQueryDatabase.open(kind)) {
            SchemaCatalog catalog = new SchemaCatalog(db.source(), SchemaCatalog.DEFAULT_TTL, Clock.systemUTC());
            TableInfo orders = catalog.table("orders").orElseThrow();
            assertEquals("订单信息表", orders.comment());
            assertEquals(List.of(new ForeignKeyInfo("fk_orders_user", List.of("user_id"), "users", List.of("id"))), orders.foreignKeys());
            ColumnInfo status = orders.columns().stream().filter(c -> c.name().equals("status")).findFirst().orElseThrow();
            assertEquals("pending", status.defaultValue());
            ColumnInfo total = orders.columns().stream().filter(c -> c.name().equals("total_amount")).findFirst().orElseThrow();
            assertEquals("decimal(12,2)", total.type());
            assertEquals("0.00", total.defaultValue());
            assertTrue(orders.relationships().contains(new Relationship("many_to_one", "orders", "user_id", "users", "id", Relationship.FOREIGN_KEY)));
            assertTrue(orders.relationships().contains(new Relationship("one_to_many", "orders", "id", "order_items", "order_id", Relationship.FOREIGN_KEY)));

            TableInfo departments = catalog.table("departments").orElseThrow();
            assertTrue(departments.relationships().contains(new Relationship("one_to_many", "departments", "id", "departments", "parent_id", Relationship.FOREIGN_KEY)));
            assertTrue(departments.relationships().contains(new Relationship("many_to_one", "departments", "parent_id", "departments", "id", Relationship.FOREIGN_KEY)));

            TableInfo employees = catalog.table("employees").orElseThrow();
            assertEquals(List.of("fk_employees_department", "fk_employees_manager"), employees.foreignKeys().stream().map(ForeignKeyInfo::name).toList());
            assertTrue(employees.relationships().contains(new Relationship("many_to_one", "employees", "user_id", "users", "id", Relationship.NAMING)));
            assertEquals(List.of("PRIMARY", "idx_employees_department", "idx_employees_manager"),
                    employees.indexes().stream().map(IndexInfo::name).toList());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void everyTableAndIndexIsDescribedTheSameOnBothDatabases(TestDatabase.Kind kind) throws Exception {
        try (DemoQueryDatabase db = DemoQueryDatabase.open(kind)) {
            SchemaCatalog catalog = new SchemaCatalog(db.source(), SchemaCatalog.DEFAULT_TTL, Clock.systemUTC());
            StringBuilder description = new StringBuilder();
            for (TableInfo table : catalog.tables().values()) {
                description.append(table.name()).append(' ').append(table.comment()).append('\n');
                table.columns().forEach(c -> description.append("  ").append(c).append('\n'));
                table.indexes().forEach(i -> description.append("  ").append(i).append('\n'));
                table.foreignKeys().forEach(f -> description.append("  ").append(f).append('\n'));
                table.relationships().stream().map(Object::toString).sorted().forEach(r -> description.append("  ").append(r).append('\n'));
            }
            // the same golden description for both databases: what H2 says is what MariaDB says
            assertEquals(golden().strip(), description.toString().strip());
        }
    }

    private static String golden() throws IOException {
        try (InputStream in = SchemaCatalogTest.class.getClassLoader().getResourceAsStream("sql/demo-catalog.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void cachedUntilTheTtlPassesOrARefresh(TestDatabase.Kind kind) throws Exception {
        try (DemoQueryDatabase db = DemoQueryDatabase.open(kind)) {
            MutableClock clock = new MutableClock();
            SchemaCatalog catalog = new SchemaCatalog(db.source(), Duration.ofMinutes(10), clock);
            assertEquals(8, catalog.tableNames().size());
            try (Connection c = db.source().open()) {
                c.createStatement().execute("CREATE TABLE coupons (id INT PRIMARY KEY) COMMENT='优惠券表'");
            }
            clock.advance(Duration.ofMinutes(9));
            assertEquals(8, catalog.tableNames().size(), "still cached");
            clock.advance(Duration.ofMinutes(1));
            assertEquals(9, catalog.tableNames().size(), "read again after the TTL");
            try (Connection c = db.source().open()) {
                c.createStatement().execute("DROP TABLE coupons");
            }
            assertEquals(9, catalog.tableNames().size());
            catalog.refresh();
            assertEquals(8, catalog.tableNames().size(), "read again after a refresh");
        }
    }

    private static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2025-01-20T10:30:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
