// NL->SQL benchmark (issue 6, "Speed"), against the MariaDB on 127.0.0.1:3306, in one run: schema.search on a
// 200-table schema, and one guarded SELECT through Switchboard's `sqlquery` MCP tool versus @bytebase/dbhub's
// execute_sql on the same statement, database and read-only account. Switchboard runs as its own server (Liberty on
// 19500, the seed dialect's TCP transport on 19503) with the bench database as its query database; dbhub on 19502;
// a scripted model on 19501 answers the natural-language path with the same SELECT.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DialectSession } from "./lib/dialect-session.mjs";
import { McpSession } from "./lib/mcp-session.mjs";
import { runLoad } from "./lib/load.mjs";
import { coldNotice } from "./lib/jit.mjs";
import { answersHttp, onExit, sleep, start, waitFor } from "./lib/processes.mjs";
import { api, startSwitchboard, userToken } from "./lib/switchboard.mjs";
import { startRecording } from "./lib/profile.mjs";
import { ms, rate, table, verdict } from "./lib/stats.mjs";

export const PORTS = { switchboard: 19500, provider: 19501, dbhub: 19502, dialect: 19503 };
const DATABASE = "sbbench_sql";
/** The read-only account both servers query with (SELECT on the bench database only), as README recommends. */
const READER = { user: "sbbench_sql", password: "sbbench-sql-reader" };
const USER = { username: "bench-sql-user", password: "bench-sql-user-password" };
const CLIENTS = [1, 8];
const JVM_WARMUP_MS = 15_000;
const GENERATED_TABLES = 200;
/** The phrases of SchemaSearchBenchmark (the in-process figure), so the two can be read side by side. */
const PHRASES = ["用户订单", "商品库存", "供应商发票", "员工工资统计", "customer payment", "order detail", "项目任务记录", "物流历史",
  "评论审核", "warehouse stock snapshot"];

/**
 * The SELECT both tools run: users joined with their orders, grouped, sorted, 20 rows. `n` only changes a condition
 * that is always true, so each call is a new statement text (Switchboard caches results for 10 minutes by statement;
 * dbhub caches nothing) and the database does the same work every time.
 */
const guardedSelect = (n) => "SELECT u.id, u.name, COUNT(o.id) AS order_count, SUM(o.total_amount) AS total_amount "
  + `FROM users u JOIN orders o ON o.user_id = u.id WHERE u.id > -${n} GROUP BY u.id, u.name `
  + "ORDER BY total_amount DESC, u.id LIMIT 20";

/** Starts its own Switchboard (it does not use ctx.switchboard). */
export async function sqlBenchmark(ctx) {
  const timing = ctx.quick ? { warmupMs: 2_000, measureMs: 5_000 } : { warmupMs: 5_000, measureMs: 15_000 };
  const here = path.dirname(fileURLToPath(import.meta.url));
  prepareDatabase(ctx.repoDir);

  const provider = start("sql-scripted-model", process.execPath, [path.join(here, "lib", "scripted-provider.mjs"),
    String(PORTS.provider), `\`\`\`sql\n${guardedSelect(1)}\n\`\`\``], { logDir: ctx.logDir });
  const dbhub = startDbhub(ctx);
  await waitFor("scripted model", () => answersHttp(PORTS.provider), 30_000, provider);
  await waitFor("dbhub", () => answersHttp(PORTS.dbhub, "/healthz"), 60_000, dbhub);

  console.log("\nstarting Switchboard with the bench database as its query database");
  const switchboard = await startSwitchboard({ repoDir: ctx.repoDir, workDir: ctx.workDir, port: PORTS.switchboard,
    serverName: "switchboard-sql", properties: {
      "query.db.url": `jdbc:mysql://127.0.0.1:3306/${DATABASE}?sslMode=DISABLED`,
      "query.db.user": READER.user,
      "query.db.password": READER.password,
      "query.tcp.host": "127.0.0.1",
      "query.tcp.port": PORTS.dialect,
      // the seed's 100 requests per minute per connection would refuse a closed-loop client within a second
      "query.limit.requests-per-minute": 100_000_000,
      "llm.base-url": `http://127.0.0.1:${PORTS.provider}/v1`,
      "llm.model": "scripted-model",
    } });
  try {
    await api(switchboard, "/api/users", { ...USER, role: "user", tenant: "default" });
    const token = await userToken(switchboard.base, USER.username, USER.password);
    const auth = { Authorization: `Bearer ${token}` };
    await sqlqueryReady(switchboard, auth);

    let calls = 0;
    const bySql = () => ({ sql: guardedSelect(++calls) });
    const targets = [
      { name: "dbhub execute_sql", route: `@bytebase/dbhub 0.21.2 Streamable HTTP /mcp (stateless), readonly, max_rows 20`,
        open: () => new McpSession(`http://127.0.0.1:${PORTS.dbhub}/mcp`), tool: "execute_sql", args: bySql, pid: dbhub.pid },
      { name: "switchboard /mcp", route: "sqlquery__query_execute {sql}: token, policy, audit, in-process sqlquery",
        open: () => new McpSession(`${switchboard.base}/mcp`, auth), tool: "sqlquery__query_execute", args: bySql, pid: switchboard.pid },
      { name: "switchboard /mcp/servers/*", route: "/mcp/servers/sqlquery query_execute {sql}",
        open: () => new McpSession(`${switchboard.base}/mcp/servers/sqlquery`, auth), tool: "query_execute", args: bySql, pid: switchboard.pid },
      { name: "switchboard dialect TCP", route: "seed 000 query.execute {sql} over TCP: the service without the MCP gateway",
        open: () => new DialectSession(PORTS.dialect, token), tool: "query.execute", args: bySql, pid: switchboard.pid },
      { name: "switchboard /mcp NL", route: "sqlquery__query_execute {query}: schema search, scripted model, guard, run",
        open: () => new McpSession(`${switchboard.base}/mcp`, auth), tool: "sqlquery__query_execute",
        args: () => ({ query: `查询用户的订单数量和金额 #${++calls}` }), pid: switchboard.pid },
    ];
    const searches = [
      { name: "schema.search dialect TCP", route: "seed 000 schema.search over TCP",
        open: () => new DialectSession(PORTS.dialect, token), tool: "schema.search", pid: switchboard.pid },
      { name: "schema_search /mcp", route: "sqlquery__schema_search through the gateway",
        open: () => new McpSession(`${switchboard.base}/mcp`, auth), tool: "sqlquery__schema_search", pid: switchboard.pid },
    ];
    let phrase = 0;
    const searchArgs = () => ({ query: PHRASES[phrase++ % PHRASES.length], limit: 10 });

    if (!ctx.quick) {
      const warmupMs = ctx.options.jvmWarmupMs ?? JVM_WARMUP_MS;
      console.log(`warming up Switchboard's routes (${warmupMs / 1000} s each, not recorded)`);
      for (const target of [...targets.filter(({ name }) => name.startsWith("switchboard")), ...searches]) {
        await runLoad({ openSession: target.open, tool: target.tool, args: target.args ?? searchArgs, clients: 4,
          cpuPid: target.pid, warmupMs, measureMs: 0 });
      }
    }
    // a quick run measures Switchboard's JVM as it comes up, and says so
    const cold = ctx.quick ? coldNotice([{ name: "switchboard-sql" }]) : "";
    if (cold) {
      console.log(`\n${cold}`);
    }
    console.log(`\n== NL->SQL benchmark on MariaDB (${GENERATED_TABLES} generated tables + the demo schema), warm-up `
      + `${timing.warmupMs} ms, measured ${timing.measureMs} ms per cell\n`);
    const search = {};
    for (const target of searches) {
      search[target.name] = await runLoad({ openSession: target.open, tool: target.tool, args: searchArgs, clients: 1,
        cpuPid: target.pid, ...timing });
      print(target.name, search[target.name]);
    }
    const results = {};
    let profile = null;
    for (const clients of CLIENTS) {
      // --profile records the 1-client cells only: a longer recording outgrows what `jfr print` can hand over
      const recording = ctx.options.profile && clients === 1 ? startRecording({ switchboard, workDir: ctx.workDir }, "sql") : null;
      for (const target of targets) {
        const result = await runLoad({ openSession: target.open, tool: target.tool, args: target.args, clients, cpuPid: target.pid, ...timing });
        (results[target.name] ??= {})[clients] = result;
        print(target.name, result);
      }
      profile = recording ? recording.stop() : profile;
    }
    const model = await modelRoundTrip();
    const report = `${cold ? `${cold}\n\n` : ""}${sqlReport(searches, search, targets, results, model)}`;
    console.log(`\n${report}`);
    if (profile) {
      console.log(`\n${profile}`);
    }
    return { database: DATABASE, tables: GENERATED_TABLES, statement: guardedSelect("N"), timing,
      targets: [...searches, ...targets].map(({ name, route }) => ({ name, route })), cold: Boolean(cold), search, results, model,
      report };
  } finally {
    switchboard.stop();
  }
}

function print(name, result) {
  console.log(`  ${name.padEnd(28)} ${String(result.clients).padStart(2)} clients: p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms, `
    + `${rate(result.throughput)} calls/s, CPU ${ms(result.cpuPerCall)} ms/call${result.errors ? `, ${result.errors} errors (${result.firstError})` : ""}`);
}

/**
 * A fresh bench database on the local MariaDB: the demo schema and rows (the same scripts the server loads into H2)
 * plus 200 generated tables with Chinese comments (the rules of SchemaSearchBenchmark), and the read-only account.
 * Dropped, with the account, when the run ends.
 */
function prepareDatabase(repoDir) {
  const demo = path.join(repoDir, "src", "main", "resources", "sql", "demo");
  console.log(`creating database ${DATABASE} on 127.0.0.1:3306 (demo schema + ${GENERATED_TABLES} generated tables)`);
  mariadb(`DROP DATABASE IF EXISTS ${DATABASE}; CREATE DATABASE ${DATABASE} CHARACTER SET utf8mb4;
    CREATE USER IF NOT EXISTS '${READER.user}'@'%' IDENTIFIED BY '${READER.password}';
    GRANT SELECT ON ${DATABASE}.* TO '${READER.user}'@'%';`);
  onExit(() => mariadb(`DROP DATABASE IF EXISTS ${DATABASE}; DROP USER IF EXISTS '${READER.user}'@'%';`));
  mariadb(["schema.sql", "data.sql"].map((file) => fs.readFileSync(path.join(demo, file), "utf8")).join("\n"), DATABASE);
  mariadb(generatedTables(), DATABASE);
}

function generatedTables() {
  const nouns = ["用户", "订单", "商品", "库存", "仓库", "供应商", "客户", "发票", "支付", "物流", "优惠券", "评论", "部门", "员工", "考勤",
    "工资", "合同", "项目", "任务", "日志"];
  const kinds = ["信息", "明细", "记录", "统计", "配置", "历史", "关系", "快照", "审核", "归档"];
  const words = ["user", "order", "product", "stock", "warehouse", "supplier", "customer", "invoice", "payment", "shipment",
    "coupon", "review", "department", "employee", "attendance", "salary", "contract", "project", "task", "log"];
  const suffixes = ["info", "detail", "record", "stat", "config", "history", "relation", "snapshot", "audit", "archive"];
  return Array.from({ length: GENERATED_TABLES }, (_, i) => {
    const noun = nouns[i % 20];
    const kind = kinds[Math.floor(i / 20)];
    const parent = i >= 20 ? `, ${words[i % 20]}_id BIGINT COMMENT '${noun}ID'` : "";
    return `CREATE TABLE ${words[i % 20]}_${suffixes[Math.floor(i / 20)]} (id BIGINT PRIMARY KEY COMMENT '${noun}${kind}ID', `
      + `name VARCHAR(100) COMMENT '${noun}名称', ${words[(i + 3) % 20]}_id BIGINT COMMENT '关联${nouns[(i + 3) % 20]}ID', `
      + `amount DECIMAL(10,2) COMMENT '金额', status TINYINT COMMENT '状态', created_at DATETIME COMMENT '创建时间'${parent}`
      + `) COMMENT='${noun}${kind}表';`;
  }).join("\n");
}

/** Runs SQL as MariaDB's root (empty password, as the tests use it) with the command-line client. */
function mariadb(sql, database) {
  const client = ["mariadb", "mysql"].find((name) => {
    try {
      execFileSync(name, ["--version"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  });
  if (!client) {
    throw new Error("the NL->SQL benchmark needs the MariaDB/MySQL command-line client (apt-get install mariadb-client)");
  }
  execFileSync(client, ["--protocol=TCP", "-h", "127.0.0.1", "-P", "3306", "-u", "root", "--default-character-set=utf8mb4",
    ...(database ? [database] : [])], { input: sql, stdio: ["pipe", "ignore", "pipe"] });
}

/** dbhub over Streamable HTTP with the read-only account, its read-only mode on and its row cap at the SELECT's 20. */
function startDbhub(ctx) {
  const config = path.join(ctx.workDir, "dbhub.toml");
  fs.writeFileSync(config, `[[sources]]
id = "bench"
dsn = "mariadb://${READER.user}:${READER.password}@127.0.0.1:3306/${DATABASE}?sslmode=disable"

[[tools]]
name = "execute_sql"
source = "bench"
readonly = true
max_rows = 20
`);
  const entry = path.join(ctx.nodeModules, "@bytebase", "dbhub", "dist", "index.js");
  // its own working dir: dbhub reads a .env from there
  return start("dbhub", process.execPath, [entry, "--transport", "http", "--port", String(PORTS.dbhub), "--config", config],
    { logDir: ctx.logDir, cwd: ctx.workDir });
}

/** The demo registration of sqlquery happens during start-up; wait until the user's /mcp lists its tools. */
async function sqlqueryReady(switchboard, auth) {
  await waitFor("sqlquery in /mcp", async () => {
    const session = new McpSession(`${switchboard.base}/mcp`, auth);
    try {
      await session.initialize();
      return (await session.listTools()).some(({ name }) => name === "sqlquery__query_execute");
    } finally {
      await session.close();
    }
  }, 120_000);
}

/** The scripted model's own answer time (blocking completion, as the NL path asks it), to read the NL row against. */
async function modelRoundTrip() {
  const samples = [];
  for (let i = 0; i < 200; i++) {
    const begin = performance.now();
    const response = await fetch(`http://127.0.0.1:${PORTS.provider}/v1/chat/completions`, { method: "POST",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify({ model: "scripted-model", messages: [{ role: "user", content: "q" }] }) });
    await response.json();
    if (i >= 50) {
      samples.push(performance.now() - begin);
    }
    await sleep(0);
  }
  samples.sort((a, b) => a - b);
  return { p50: samples[Math.floor(samples.length / 2)] };
}

function sqlReport(searches, search, targets, results, model) {
  const lines = ["NL->SQL (issue 6): schema.search, 1 client, the SchemaSearchBenchmark phrases in turn, limit 10",
    table(["route", "p50 ms", "p99 ms", "calls/s", "CPU ms/call"],
      searches.map(({ name }) => [name, ms(search[name].p50), ms(search[name].p99), rate(search[name].throughput), ms(search[name].cpuPerCall)])),
    "", "Guarded SELECT (users x orders, GROUP BY, ORDER BY, 20 rows; a new statement text per call)",
    table(["target", "clients", "p50 ms", "p99 ms", "calls/s", "CPU ms/call", "p50 vs dbhub", "errors"],
      CLIENTS.flatMap((clients) => targets.map(({ name }) => {
        const r = results[name][clients];
        const base = results["dbhub execute_sql"][clients];
        return [name, clients, ms(r.p50), ms(r.p99), rate(r.throughput), ms(r.cpuPerCall), `${(r.p50 / base.p50).toFixed(2)}x`, r.errors];
      }))),
    "", ...targets.map(({ name, route }) => `  ${name}: ${route}`),
    `  the scripted model answers a blocking completion in ${ms(model.p50)} ms (p50), part of the NL row`,
    "", "Targets:",
    verdict(search["schema.search dialect TCP"].p50 < 10, "schema.search p50 under 10 ms (seed dialect)", `${ms(search["schema.search dialect TCP"].p50)} ms`),
    verdict(search["schema_search /mcp"].p50 < 10, "schema_search p50 under 10 ms (MCP tool through /mcp)", `${ms(search["schema_search /mcp"].p50)} ms`),
  ];
  for (const clients of CLIENTS) {
    const ours = results["switchboard /mcp"][clients];
    const theirs = results["dbhub execute_sql"][clients];
    lines.push(verdict(ours.p50 <= theirs.p50 && ours.throughput >= theirs.throughput,
      `guarded SELECT through sqlquery__query_execute no slower than dbhub's execute_sql at ${clients} client${clients > 1 ? "s" : ""} (p50 and calls/s)`,
      `p50 ${ms(ours.p50)} vs ${ms(theirs.p50)} ms, ${rate(ours.throughput)} vs ${rate(theirs.throughput)} calls/s`));
  }
  return lines.join("\n");
}
