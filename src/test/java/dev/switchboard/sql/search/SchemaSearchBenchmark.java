package dev.switchboard.sql.search;

import dev.switchboard.persistence.TestDatabase;
import dev.switchboard.sql.Permissions;
import dev.switchboard.sql.catalog.SchemaCatalog;
import dev.switchboard.sql.execute.JdbcQueryConnectionSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * Issue 6's speed target for {@code schema.search} (p50 under 10 ms on a 200-table schema): a benchmark, not a test.
 * Generates 200 tables with Chinese comments and foreign keys on MariaDB ({@code it.mariadb.url}, default) or H2
 * ({@code h2} argument), warms up, then times 2000 searches of varied phrases. Run:
 * {@code mvn -q test-compile exec:java -Dexec.classpathScope=test -Dexec.mainClass=dev.switchboard.sql.search.SchemaSearchBenchmark [-Dexec.args=h2]}
 */
public final class SchemaSearchBenchmark {

    private static final String[] NOUNS = {"用户", "订单", "商品", "库存", "仓库", "供应商", "客户", "发票", "支付", "物流",
            "优惠券", "评论", "部门", "员工", "考勤", "工资", "合同", "项目", "任务", "日志"};
    private static final String[] KINDS = {"信息", "明细", "记录", "统计", "配置", "历史", "关系", "快照", "审核", "归档"};
    private static final String[] WORDS = {"user", "order", "product", "stock", "warehouse", "supplier", "customer",
            "invoice", "payment", "shipment", "coupon", "review", "department", "employee", "attendance", "salary",
            "contract", "project", "task", "log"};
    private static final String[] SUFFIX = {"info", "detail", "record", "stat", "config", "history", "relation", "snapshot",
            "audit", "archive"};
    private static final List<String> PHRASES = List.of("用户订单", "商品库存", "供应商发票", "员工工资统计", "customer payment",
            "order detail", "项目任务记录", "物流历史", "评论审核", "warehouse stock snapshot");

    private SchemaSearchBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        boolean h2 = Arrays.asList(args).contains("h2");
        String name = "sbbench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        String url;
        String server = TestDatabase.mariadbServerUrl();
        if (h2 || server.isBlank()) {
            url = "jdbc:h2:mem:" + name + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1";
        } else {
            try (Connection c = DriverManager.getConnection(server, "root", "")) {
                c.createStatement().execute("CREATE DATABASE " + name + " CHARACTER SET utf8mb4");
            }
            url = server + name;
        }
        JdbcQueryConnectionSource source = new JdbcQueryConnectionSource(url, h2 ? "sa" : "root", "");
        try (Connection c = source.open(); Statement st = c.createStatement()) {
            for (int i = 0; i < 200; i++) {
                String table = WORDS[i % 20] + "_" + SUFFIX[i / 20];
                String parent = i >= 20 ? "," + WORDS[i % 20] + "_id BIGINT COMMENT '" + NOUNS[i % 20] + "ID'" : "";
                st.execute("CREATE TABLE " + table + " (id BIGINT PRIMARY KEY COMMENT '" + NOUNS[i % 20] + KINDS[i / 20] + "ID'"
                        + ", name VARCHAR(100) COMMENT '" + NOUNS[i % 20] + "名称'"
                        + ", " + WORDS[(i + 3) % 20] + "_id BIGINT COMMENT '关联" + NOUNS[(i + 3) % 20] + "ID'"
                        + ", amount DECIMAL(10,2) COMMENT '金额', status TINYINT COMMENT '状态'"
                        + ", created_at DATETIME COMMENT '创建时间'" + parent
                        + ") COMMENT='" + NOUNS[i % 20] + KINDS[i / 20] + "表'");
            }
        }
        try {
            SchemaSearch search = new SchemaSearch(new SchemaCatalog(source, SchemaCatalog.DEFAULT_TTL, Clock.systemUTC()));
            Permissions admin = Permissions.of(Permissions.ADMIN);
            long indexStart = System.nanoTime();
            search.search("用户", 10, admin);
            System.out.printf("catalog read + index build: %.1f ms%n", (System.nanoTime() - indexStart) / 1e6);
            for (int i = 0; i < 500; i++) {
                search.search(PHRASES.get(i % PHRASES.size()), 10, admin);
            }
            long[] nanos = new long[2000];
            for (int i = 0; i < nanos.length; i++) {
                long t = System.nanoTime();
                search.search(PHRASES.get(i % PHRASES.size()), 10, admin);
                nanos[i] = System.nanoTime() - t;
            }
            Arrays.sort(nanos);
            System.out.printf("schema.search on 200 tables (%s): p50 %.3f ms, p95 %.3f ms, p99 %.3f ms%n", h2 ? "H2" : "MariaDB",
                    nanos[1000] / 1e6, nanos[1900] / 1e6, nanos[1980] / 1e6);
        } finally {
            try (Connection c = source.open()) {
                c.createStatement().execute(url.startsWith("jdbc:h2") ? "SHUTDOWN" : "DROP DATABASE " + name);
            }
        }
    }
}
