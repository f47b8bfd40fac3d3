// Gateway benchmark (issue 3): tools/call latency and throughput at 1, 16 and 64 concurrent clients, for the same
// server-everything backend called directly, through Switchboard, and behind the npm gateways mcp-hub, mcp-proxy
// and supergateway, all in one run with one load client (lib/load.mjs).
import fs from "node:fs";
import path from "node:path";
import { LegacySseSession, McpSession, StatelessSession } from "./lib/mcp-session.mjs";
import { inRounds, runLoad, runPacedLoad } from "./lib/load.mjs";
import { withOwnCore } from "./lib/cores.mjs";
import { answersHttp, start, waitFor } from "./lib/processes.mjs";
import { api, startSwitchboard } from "./lib/switchboard.mjs";
import { coldNotice, warmUntilJitSettles } from "./lib/jit.mjs";
import { startRecording } from "./lib/profile.mjs";
import { ms, rate, table, verdict } from "./lib/stats.mjs";

export const PORTS = { backend: 19410, mcpHub: 19411, mcpProxy: 19412, supergateway: 19413, queuedAudit: 19424 };
// the same Switchboard with the audit row written after the answer (switchboard.audit.wait-for-commit=false, the mode
// before answers waited for their row's commit): what durability costs a call, measured side by side
const QUEUED_AUDIT = "switchboard /mcp, audit queued";
const CONCURRENCY = [1, 16, 64];
const TARGET_CONCURRENCY = 16;
const ECHO_ARGS = { message: "bench" };
// The paced (open-loop) cells offer every target the same rate: this share of what direct sustained closed-loop at
// TARGET_CONCURRENCY. A closed loop keeps the 2 cores saturated, and its latency is then mostly queue (clients x CPU
// per call of all processes / cores); at a rate every target can keep up with, latency says what a hop adds to a call.
const PACED_SHARE = 0.4;

/** @param ctx {switchboard, workDir, logDir, nodeModules, quick, options: {clients?, targets?, profile?}} */
export async function gatewayBenchmark(ctx) {
  const timing = ctx.quick ? { warmupMs: 1000, measureMs: 2000, rounds: 1 } : { warmupMs: 3000, measureMs: 8000, rounds: 2 };
  // --targets=a,b keeps the targets whose names start with one of them (direct always stays: it is the baseline)
  const wanted = (name) => name === "direct" || !ctx.options.targets || ctx.options.targets.some((prefix) => name.startsWith(prefix));
  const targets = (await startTargets(ctx, wanted(QUEUED_AUDIT))).filter(({ name }) => wanted(name));
  const levels = ctx.options.clients ?? CONCURRENCY;
  // a freshly started JVM interprets and compiles for minutes: load every Switchboard route unrecorded first, each
  // Switchboard JVM until its own compiler settled (also with --quick, which gives up sooner and then says so)
  const warmUps = [];
  for (const pid of new Set(targets.filter(({ name }) => name.startsWith("switchboard")).map((target) => target.pid))) {
    const routes = targets.filter((target) => target.pid === pid);
    console.log(`warming up ${routes.map(({ name }) => name).join(" and ")} (not recorded)`);
    const warmUp = await warmUntilJitSettles({ pid, fixedMs: ctx.options.jvmWarmupMs, quick: ctx.quick,
      load: async (ms) => {
        for (const target of routes) {
          await runLoad({ openSession: target.open, tool: target.tool, args: ECHO_ARGS, clients: TARGET_CONCURRENCY,
            cpuPid: target.pid, warmupMs: ms / routes.length, measureMs: 0 });
        }
      } });
    console.log(`warm-up: ${warmUp.summary}`);
    warmUps.push({ name: pid === ctx.switchboard.pid ? "switchboard" : "switchboard, audit queued", ...warmUp });
  }
  const cold = coldNotice(warmUps);
  if (cold) {
    console.log(`\n${cold}`);
  }
  const layout = ctx.options.ownCore ? "own core" : "shared cores";
  const recording = ctx.options.profile ? startRecording(ctx, "gateway") : null;
  console.log(`\n== Gateway benchmark: tools/call of server-everything's echo, ${layout}, measured ${timing.measureMs} ms per `
    + `cell in ${timing.rounds} rounds (each after ${timing.warmupMs} ms not recorded), the targets' order reversed every round\n`);
  const inCell = (target, work) => (!ctx.options.ownCore ? work()
    : withOwnCore({ gatewayPid: target.gateway, backendPids: [target.backend],
      idlePids: targets.map(({ gateway }) => gateway).filter((pid) => pid && pid !== target.gateway) }, work));
  const results = {};
  for (const clients of levels) {
    const level = await inRounds(targets, timing.rounds, (target) => inCell(target, () => runLoad({ openSession: target.open,
      tool: target.tool, args: ECHO_ARGS, clients, cpuPid: target.pid, warmupMs: timing.warmupMs, measureMs: timing.measureMs / timing.rounds })));
    for (const target of targets) {
      const result = level[target.name];
      (results[target.name] ??= {})[clients] = result;
      console.log(`  ${target.name.padEnd(28)} ${String(clients).padStart(2)} clients: p50 ${ms(result.p50)} ms, `
        + `p99 ${ms(result.p99)} ms, ${rate(result.throughput)} calls/s, CPU ${ms(result.cpuPerCall)} ms/call${result.errors ? `, ${result.errors} errors (${result.firstError})` : ""}`);
    }
  }
  let paced = {};
  const direct = results.direct?.[TARGET_CONCURRENCY];
  if (direct) {
    const offered = Math.round((ctx.options.pacedShare ?? PACED_SHARE) * direct.throughput);
    console.log(`\n  paced: ${TARGET_CONCURRENCY} clients together offering ${offered} calls/s `
      + `(${(100 * (ctx.options.pacedShare ?? PACED_SHARE)).toFixed(0)}% of direct's closed-loop throughput), each call timed from when it was due`);
    paced = await inRounds(targets, timing.rounds, (target) => inCell(target, () => runPacedLoad({ openSession: target.open,
      tool: target.tool, args: ECHO_ARGS, clients: TARGET_CONCURRENCY, rate: offered, cpuPid: target.pid,
      warmupMs: timing.warmupMs, measureMs: timing.measureMs / timing.rounds })));
    for (const target of targets) {
      const result = paced[target.name];
      console.log(`  ${target.name.padEnd(28)} paced: p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms, `
        + `${rate(result.throughput)} calls/s, ${result.late} calls late by over one interval, CPU ${ms(result.cpuPerCall)} ms/call`
        + `${result.errors ? `, ${result.errors} errors (${result.firstError})` : ""}`);
    }
  }
  const report = `${cold ? `${cold}\n\n` : ""}core layout: ${layout}\n\n${gatewayReport(targets, levels, results, paced)}`;
  console.log(`\n${report}`);
  if (recording) {
    console.log(`\n${recording.stop()}`);
  }
  return { targets: targets.map(({ name, route }) => ({ name, route })), layout, timing, warmUps, cold: Boolean(cold), results, paced,
    report };
}

async function startTargets({ switchboard, repoDir, logDir, nodeModules, workDir }, withQueuedAudit) {
  const everything = path.join(nodeModules, "@modelcontextprotocol", "server-everything", "dist", "index.js");
  const backend = start("backend-server-everything", process.execPath, [everything, "streamableHttp"],
    { logDir, env: { PORT: String(PORTS.backend) } });
  await waitFor("server-everything", () => answersHttp(PORTS.backend), 30_000, backend);
  const backendUrl = `http://127.0.0.1:${PORTS.backend}/mcp`;

  await api(switchboard, "/api/mcp-servers", { name: "everything", type: "streamableHttp", baseUrl: backendUrl, scope: "shared" });
  // the same server as Switchboard's stdio child, the way mcp-proxy and supergateway reach it: without the
  // backend's own HTTP handling, which costs about as much CPU per call as a whole gateway may add
  await api(switchboard, "/api/mcp-servers",
    { name: "everything-stdio", type: "stdio", command: process.execPath, args: [everything, "stdio"], scope: "shared" });
  const bearer = { Authorization: `Bearer ${switchboard.token}` };

  const hubHome = path.join(workDir, "mcp-hub-home");
  const hubConfig = path.join(hubHome, "mcp-servers.json");
  prepareMcpHubHome(hubHome, hubConfig, backendUrl);
  const hub = start("mcp-hub", process.execPath,
    [path.join(nodeModules, "mcp-hub", "dist", "cli.js"), "--port", String(PORTS.mcpHub), "--config", hubConfig],
    { logDir, cwd: hubHome, env: { HOME: hubHome, XDG_DATA_HOME: `${hubHome}/data`, XDG_STATE_HOME: `${hubHome}/state`, XDG_CONFIG_HOME: `${hubHome}/config` } });
  // mcp-proxy and supergateway only front stdio servers: they get server-everything as their own stdio child
  const proxy = start("mcp-proxy", process.execPath,
    [path.join(nodeModules, "mcp-proxy", "dist", "bin", "mcp-proxy.mjs"), "--port", String(PORTS.mcpProxy), "--host", "127.0.0.1",
      "--server", "stream", "--", process.execPath, everything, "stdio"], { logDir });
  const gateway = start("supergateway", process.execPath,
    [path.join(nodeModules, "supergateway", "dist", "index.js"), "--stdio", `${process.execPath} ${everything} stdio`,
      "--outputTransport", "streamableHttp", "--stateful", "--port", String(PORTS.supergateway), "--logLevel", "none"], { logDir });
  await waitFor("mcp-hub", () => answersHttp(PORTS.mcpHub, "/api/health"), 60_000, hub);
  await waitFor("mcp-proxy", () => answersHttp(PORTS.mcpProxy), 30_000, proxy);
  await waitFor("supergateway", () => answersHttp(PORTS.supergateway), 30_000, gateway);

  const queued = withQueuedAudit ? await startSwitchboard({ repoDir, workDir, port: PORTS.queuedAudit,
    serverName: "switchboard-bench-queued-audit", properties: { "switchboard.audit.wait-for-commit": "false" } }) : null;
  if (queued) {
    await api(queued, "/api/mcp-servers", { name: "everything", type: "streamableHttp", baseUrl: backendUrl, scope: "shared" });
  }

  const targets = [
    { name: "direct", route: `server-everything ${backendUrl}`, tool: "echo", pid: backend.pid, open: () => new McpSession(backendUrl) },
    { name: "switchboard /mcp", route: "aggregated /mcp, bearer token, audited (the answer waits for its row's commit)",
      tool: "everything__echo", pid: switchboard.pid, open: () => new McpSession(`${switchboard.base}/mcp`, bearer) },
    ...(!queued ? [] : [{ name: QUEUED_AUDIT, route: "the same, its own Switchboard, audit row written after the answer",
      tool: "everything__echo", pid: queued.pid, open: () => new McpSession(`${queued.base}/mcp`, { Authorization: `Bearer ${queued.token}` }) }]),
    { name: "switchboard /mcp (2026-07-28)", route: "aggregated /mcp, stateless MCP 2026-07-28 (no session), bearer token, audited",
      tool: "everything__echo", pid: switchboard.pid, open: () => new StatelessSession(`${switchboard.base}/mcp`, bearer) },
    { name: "switchboard /mcp/servers/*", route: "per-backend passthrough, bearer token, audited", tool: "echo",
      pid: switchboard.pid, open: () => new McpSession(`${switchboard.base}/mcp/servers/everything`, bearer) },
    { name: "switchboard /mcp, stdio", route: "aggregated /mcp -> server-everything as a stdio child, bearer token, audited",
      tool: "everything-stdio__echo", pid: switchboard.pid, open: () => new McpSession(`${switchboard.base}/mcp`, bearer) },
    { name: "mcp-hub", route: "legacy HTTP+SSE /mcp -> backend over Streamable HTTP", tool: "everything__echo",
      pid: hub.pid, open: () => new LegacySseSession(`http://127.0.0.1:${PORTS.mcpHub}/mcp`) },
    { name: "mcp-proxy", route: "Streamable HTTP /mcp -> server-everything over stdio", tool: "echo",
      pid: proxy.pid, open: () => new McpSession(`http://127.0.0.1:${PORTS.mcpProxy}/mcp`) },
    { name: "supergateway", route: "Streamable HTTP /mcp (stateful) -> server-everything over stdio", tool: "echo",
      pid: gateway.pid, open: () => new McpSession(`http://127.0.0.1:${PORTS.supergateway}/mcp`) },
  ];
  for (const target of targets) {
    // for the core layout: the process a target puts between client and backend (none for direct), and the backend
    target.gateway = target.name === "direct" ? null : target.pid;
    target.backend = backend.pid;
  }
  // mcp-hub connects to its backend in the background: wait until it lists the tool
  await waitFor("mcp-hub lists everything__echo", () => listsTool(targets.find(({ name }) => name === "mcp-hub")), 60_000, hub);
  for (const target of targets) {
    if (!(await listsTool(target))) {
      throw new Error(`${target.name} does not list the tool ${target.tool}`);
    }
  }
  return targets;
}

async function listsTool(target) {
  const session = target.open();
  try {
    await session.initialize();
    return (await session.listTools()).some((tool) => tool.name === target.tool);
  } finally {
    await session.close();
  }
}

/**
 * mcp-hub's config, and a marketplace cache it takes as fresh: otherwise it fetches its marketplace catalogue from
 * the internet at startup (there is none here, and the benchmark talks to 127.0.0.1 only).
 */
function prepareMcpHubHome(hubHome, hubConfig, backendUrl) {
  fs.rmSync(hubHome, { recursive: true, force: true });
  const cache = path.join(hubHome, "data", "mcp-hub", "cache");
  fs.mkdirSync(cache, { recursive: true });
  fs.writeFileSync(path.join(cache, "registry.json"), JSON.stringify({
    registry: { version: "bench", generatedAt: Date.now(), totalServers: 1, servers: [{ id: "bench-placeholder" }] },
    lastFetchedAt: Date.now(),
    serverDocumentation: {},
  }));
  fs.writeFileSync(hubConfig, JSON.stringify({ mcpServers: { everything: { url: backendUrl } } }));
}

function gatewayReport(targets, levels, results, paced) {
  const direct = results.direct;
  const sections = levels.map((clients) => {
    const base = direct[clients];
    const rows = targets.map(({ name }) => {
      const r = results[name][clients];
      const relative = name === "direct" ? ["-", "-", "-"]
        : [signed(r.p50 - base.p50), signed(r.p99 - base.p99), `${(100 * r.throughput / base.throughput).toFixed(0)}%`];
      return [name, ms(r.p50), ms(r.p99), ms(r.max), rate(r.throughput), r.errors, ms(r.cpuPerCall), ...relative];
    });
    return `${clients} concurrent client${clients === 1 ? "" : "s"}, closed loop:\n`
      + table(["target", "p50 ms", "p99 ms", "max ms", "calls/s", "errors", "CPU ms/call", "+p50 ms", "+p99 ms", "of direct"], rows);
  });
  const pacedBase = paced.direct;
  if (pacedBase) {
    const rows = targets.filter(({ name }) => paced[name]).map(({ name }) => {
      const r = paced[name];
      const relative = name === "direct" ? ["-", "-"] : [signed(r.p50 - pacedBase.p50), signed(r.p99 - pacedBase.p99)];
      return [name, ms(r.p50), ms(r.p99), ms(r.max), rate(r.throughput), r.late, r.errors, ms(r.cpuPerCall), ...relative];
    });
    sections.push(`${TARGET_CONCURRENCY} clients, paced at ${rate(pacedBase.rate)} calls/s (open loop, timed from when each call was due):\n`
      + table(["target", "p50 ms", "p99 ms", "max ms", "calls/s", "late", "errors", "CPU ms/call", "+p50 ms", "+p99 ms"], rows));
  }
  const sb = results["switchboard /mcp"]?.[TARGET_CONCURRENCY];
  const base = direct[TARGET_CONCURRENCY];
  const sbPaced = paced["switchboard /mcp"];
  const others = ["mcp-hub", "mcp-proxy", "supergateway"].filter((name) => results[name]?.[TARGET_CONCURRENCY]);
  if (!sb || !base || !sbPaced || !pacedBase) {
    return `${sections.join("\n\n")}\n\n(targets of issue 3 not judged: they need direct and switchboard /mcp at ${TARGET_CONCURRENCY} clients)`;
  }
  const beats = (route, label, name) => {
    const other = results[name][TARGET_CONCURRENCY];
    const mine = results[route][TARGET_CONCURRENCY];
    const [p, q] = [paced[route], paced[name]];
    return verdict(p.p50 <= q.p50 && p.p99 <= q.p99 && mine.throughput >= other.throughput,
      `${label} beats ${name}: paced p50 and p99, closed-loop throughput (16 clients)`,
      `p50 ${ms(p.p50)} vs ${ms(q.p50)} ms, p99 ${ms(p.p99)} vs ${ms(q.p99)} ms, ${rate(mine.throughput)} vs ${rate(other.throughput)} calls/s`);
  };
  const checks = [
    verdict(sbPaced.p50 - pacedBase.p50 <= 1, "Switchboard /mcp adds <= 1 ms at p50 (16 clients, paced)", `${signed(sbPaced.p50 - pacedBase.p50)} ms`),
    verdict(sbPaced.p99 - pacedBase.p99 <= 5, "Switchboard /mcp adds <= 5 ms at p99 (16 clients, paced)", `${signed(sbPaced.p99 - pacedBase.p99)} ms`),
    verdict(sb.throughput >= 0.8 * base.throughput, "Switchboard /mcp keeps >= 80% of direct throughput (16 clients, closed loop)",
      `${(100 * sb.throughput / base.throughput).toFixed(0)}%`),
    verdict(sb.errors === 0 && sbPaced.errors === 0, "no failed call through Switchboard /mcp (16 clients)", `${sb.errors + sbPaced.errors}`),
    ...others.filter((name) => paced[name]).map((name) => beats("switchboard /mcp", "Switchboard /mcp", name)),
  ];
  // issue 17: a stateless 2026-07-28 call must cost no more than a session-era one, same run
  const modern = results["switchboard /mcp (2026-07-28)"]?.[TARGET_CONCURRENCY];
  const modernPaced = paced["switchboard /mcp (2026-07-28)"];
  if (modern && modernPaced) {
    checks.push(verdict(modernPaced.p50 <= sbPaced.p50 && modern.throughput >= sb.throughput,
      "a stateless 2026-07-28 call through /mcp costs no more than a session-era one (paced p50, closed-loop throughput, 16 clients)",
      `p50 ${ms(modernPaced.p50)} vs ${ms(sbPaced.p50)} ms, ${rate(modern.throughput)} vs ${rate(sb.throughput)} calls/s`));
  }
  // like for like: mcp-proxy and supergateway reach server-everything as their stdio child, so does this route
  const likeForLike = !paced["switchboard /mcp, stdio"] ? []
    : ["mcp-proxy", "supergateway"].filter((name) => paced[name])
      .map((name) => beats("switchboard /mcp, stdio", "Switchboard /mcp with the backend as stdio child (same backend transport)", name));
  // the closed loop's latency, for the record: on saturated cores it is the queue, which throughput already judges
  const saturated = `closed loop at 16 clients (saturated, not judged): /mcp ${signed(sb.p50 - base.p50)} ms at p50, `
    + `${signed(sb.p99 - base.p99)} ms at p99 over direct`;
  return `${sections.join("\n\n")}\n\nTargets (issue 3):\n${[...checks, ...likeForLike].join("\n")}\n${saturated}`
    + durabilityCost(results, paced);
}

/** What waiting for the audit row's commit costs a call: /mcp against the same route with the row written after the answer. */
function durabilityCost(results, paced) {
  const [durable, queued] = [results["switchboard /mcp"], results[QUEUED_AUDIT]];
  if (!queued) {
    return "";
  }
  const lines = Object.keys(queued).map((clients) => `  ${clients} client${clients === "1" ? "" : "s"}, closed loop: `
    + `p50 ${signed(durable[clients].p50 - queued[clients].p50)} ms, p99 ${signed(durable[clients].p99 - queued[clients].p99)} ms, `
    + `CPU ${signed(durable[clients].cpuPerCall - queued[clients].cpuPerCall)} ms/call, `
    + `throughput ${(100 * durable[clients].throughput / queued[clients].throughput).toFixed(0)}% of queued`);
  if (paced["switchboard /mcp"] && paced[QUEUED_AUDIT]) {
    const [p, q] = [paced["switchboard /mcp"], paced[QUEUED_AUDIT]];
    lines.push(`  ${TARGET_CONCURRENCY} clients, paced: p50 ${signed(p.p50 - q.p50)} ms, p99 ${signed(p.p99 - q.p99)} ms, `
      + `CPU ${signed(p.cpuPerCall - q.cpuPerCall)} ms/call`);
  }
  return `\n\nDurable audit (the answer waits for its row's commit) against the row written after the answer, per call:\n${lines.join("\n")}`;
}

const signed = (value) => (Number.isFinite(value) ? `${value >= 0 ? "+" : ""}${value.toFixed(2)}` : "-");
