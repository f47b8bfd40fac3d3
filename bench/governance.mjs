// Governance load run (issue 4, "Under load"): 64 concurrent clients through /mcp against a real server-everything
// backend, with authentication, policy and audit on and with all three off, each mode in its own Switchboard (Liberty
// on 19420 and 19422) with its own backend (19421, 19423), all running for the whole run and loaded in turns: 2 minutes each closed
// loop (throughput, p50/p99), then 1 minute each paced at a rate both keep up with (the latency governance adds), in
// alternating slices so that both modes see the same machine. Reports errors, rate-limit refusals (counted apart
// from errors), audit rows written versus calls made, and the heap after a forced GC before and after the measured
// windows; judges the issue's targets.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { McpSession } from "./lib/mcp-session.mjs";
import { coldNotice, warmUntilJitSettles } from "./lib/jit.mjs";
import { inRounds, runLoad, runPacedLoad } from "./lib/load.mjs";
import { answersHttp, sleep, start, waitFor } from "./lib/processes.mjs";
import { api, request, startSwitchboard, userToken } from "./lib/switchboard.mjs";
import { ms, rate, table, verdict } from "./lib/stats.mjs";

export const PORTS = { on: 19420, off: 19422 };
// each mode's own server-everything: it keeps every event it sends in memory (its event store), and one backend for
// both modes grew past 3 GB, garbage-collected for seconds and reset connections late in the run
const BACKEND_PORTS = { on: 19421, off: 19423 };
const CLIENTS = 64;
const TOOL = "everything__echo";
const ECHO_ARGS = { message: "bench" };
const TENANT = "default";
const USER = { username: "bench-user", password: "bench-user-password" };
const RATE_LIMIT_REFUSED = -32010;
const AUDIT_DRAIN_TIMEOUT_MS = 120_000;
// "no growth": what a full GC leaves may differ by this much between two points without counting as growth
const HEAP_TOLERANCE = 0.05;
// each slice starts with fresh sessions; their first calls are not recorded
const SLICE_RAMP_MS = 2_000;
// the paced slices offer both modes this share of the closed loop's throughput of the slower mode
const PACED_SHARE = 0.4;

/**
 * What each run switches. "on": every client brings a token (half JWTs from /api/auth/token, half API keys), the
 * tenant has a policy binding (allowlist with the tool, a rate limit far above the load) and the gateway audits.
 * "off": anonymous MCP (no token read or checked), no policy binding (unrestricted: the policy layer passes every
 * call without a bucket) and switchboard.audit.enabled=false (the audit layer is not stacked).
 */
const MODES = [
  { name: "on", governed: true, properties: {} },
  { name: "off", governed: false, properties: { "switchboard.gateway.anonymous": "true", "switchboard.audit.enabled": "false" } },
];
// the backend's bulkhead (default 32 in flight, 0.5 s wait) would refuse calls of 64 closed-loop clients on a slow
// machine; with one slot per client it never does, so an error here is a real one (the same in both modes)
const COMMON_PROPERTIES = { "switchboard.resilience.bulkhead.max-concurrent": String(CLIENTS) };

/** Starts its own Switchboard per mode (it does not use ctx.switchboard). */
export async function governanceBenchmark(ctx) {
  const timing = ctx.quick ? { closedMs: 15_000, pacedMs: 10_000, slices: 1 }
    : { closedMs: 120_000, pacedMs: 60_000, slices: 6 };
  console.log(`\n== Governance load run: ${CLIENTS} clients calling ${TOOL} through /mcp, warm-up until the JIT settles${ctx.quick ? " (at most 3 minutes)" : ""} `
    + `(not recorded), then per mode ${timing.closedMs / 1000} s closed loop and ${timing.pacedMs / 1000} s paced, in ${timing.slices} alternating slices each\n`);
  const modes = [];
  try {
    for (const mode of MODES) {
      modes.push(await startMode(ctx, mode));
    }
    for (const mode of modes) {
      mode.warmUp = await warmMode(ctx, mode);
    }
    const cold = coldNotice(modes.map(({ name, warmUp }) => ({ name: `governance ${name}`, ...warmUp })));
    if (cold) {
      console.log(`\n${cold}`);
    }
    for (const mode of modes) {
      await auditDrained(mode.switchboard, mode.counts.calls, mode.governed);
      mode.heapBefore = heapAfterGc(mode.switchboard.pid);
      mode.classesBefore = liveClassBytes(mode.switchboard.pid);
      mode.callsBefore = mode.counts.calls;
      mode.failedBefore = mode.counts.failed;
      mode.refusedBefore = mode.counts.refused;
      mode.counts.firstFailure = null;
    }
    const closed = await inTurns(modes, timing.slices, "closed loop", (mode) => runLoad({ openSession: mode.openSession,
      tool: TOOL, args: ECHO_ARGS, clients: CLIENTS, cpuPid: mode.switchboard.pid, warmupMs: SLICE_RAMP_MS, measureMs: timing.closedMs / timing.slices }));
    const offered = Math.round(PACED_SHARE * Math.min(...modes.map(({ name }) => closed[name].throughput)));
    const paced = await inTurns(modes, timing.slices, `paced at ${offered} calls/s`, (mode) => runPacedLoad({ openSession: mode.openSession,
      tool: TOOL, args: ECHO_ARGS, clients: CLIENTS, rate: offered, cpuPid: mode.switchboard.pid, warmupMs: SLICE_RAMP_MS, measureMs: timing.pacedMs / timing.slices }));
    const results = {};
    for (const mode of modes) {
      results[mode.name] = await finishMode(mode, closed[mode.name], paced[mode.name]);
    }
    const report = `${cold ? `${cold}\n\n` : ""}${governanceReport(results, offered)}`;
    console.log(`\n${report}`);
    return { modes: MODES.map(({ name, properties }) => ({ name, properties: { ...COMMON_PROPERTIES, ...properties } })), timing,
      warmUps: Object.fromEntries(modes.map(({ name, warmUp }) => [name, warmUp])), cold: Boolean(cold), results, report };
  } finally {
    for (const mode of modes) {
      mode.switchboard.stop();
    }
  }
}

async function startMode(ctx, mode) {
  const everything = path.join(ctx.nodeModules, "@modelcontextprotocol", "server-everything", "dist", "index.js");
  const backendPort = BACKEND_PORTS[mode.name];
  const backend = start(`governance-${mode.name}-server-everything`, process.execPath, [everything, "streamableHttp"],
    { logDir: ctx.logDir, env: { PORT: String(backendPort) } });
  await waitFor("server-everything", () => answersHttp(backendPort), 30_000, backend);
  console.log(`starting Switchboard with governance ${mode.name} on port ${PORTS[mode.name]}, backend on ${backendPort}`);
  const switchboard = await startSwitchboard({ repoDir: ctx.repoDir, workDir: ctx.workDir, port: PORTS[mode.name],
    serverName: `switchboard-governance-${mode.name}`, properties: { ...COMMON_PROPERTIES, ...mode.properties } });
  await api(switchboard, "/api/mcp-servers",
    { name: "everything", type: "streamableHttp", baseUrl: `http://127.0.0.1:${backendPort}/mcp`, scope: "shared" });
  const credentials = mode.governed ? await governedCredentials(switchboard) : [{ kind: "anonymous", headers: {} }];
  const counts = { calls: 0, ok: 0, refused: 0, failed: 0, firstFailure: null };
  let opened = 0;
  const openSession = () => countingSession(new McpSession(`${switchboard.base}/mcp`, credentials[opened++ % credentials.length].headers), counts);
  await expectTool(openSession());
  return { ...mode, switchboard, credentials, counts, openSession, heapTrend: [] };
}

async function warmMode(ctx, mode) {
  console.log(`  warming up governance ${mode.name} (not recorded)`);
  // at least 100 s: the heap is compared from the end of the warm-up on, and some per-request state only reaches
  // its steady size after a while: Liberty's web container keeps each cancelled async-request timeout in its timer
  // queue until it would have fired (60-90 s here) or the queue passes its purge threshold, and H2's page cache
  // fills up with the audit tables (a quick run keeps the JIT rule's 30 s and does not judge the heap by it)
  const warmed = await warmUntilJitSettles({ pid: mode.switchboard.pid, fixedMs: ctx.options.jvmWarmupMs, quick: ctx.quick,
    minMs: ctx.quick ? undefined : 100_000,
    load: (ms) => runLoad({ openSession: mode.openSession, tool: TOOL, args: ECHO_ARGS, clients: CLIENTS, cpuPid: mode.switchboard.pid, warmupMs: ms, measureMs: 0 }) });
  console.log(`  warm-up: ${warmed.summary}`);
  return warmed;
}

/**
 * Loads the modes in turns (lib/load.mjs, inRounds), `slices` rounds, each slice's figures printed. After each slice
 * the mode's heap after a full GC joins its `heapTrend` (the next slice's first 2 s are not recorded anyway), which
 * tells growth that levels off (caches reaching their size) from growth that does not.
 */
function inTurns(modes, slices, what, load) {
  return inRounds(modes, slices, load, (mode, result, slice) => {
    const heap = heapAfterGc(mode.switchboard.pid);
    mode.heapTrend.push(heap);
    console.log(`  ${what}, slice ${slice + 1}/${slices}, governance ${mode.name.padEnd(3)}: p50 ${ms(result.p50)} ms, `
      + `p99 ${ms(result.p99)} ms, ${rate(result.throughput)} calls/s, heap after GC ${mb(heap)} MB`
      + `${result.errors ? `, ${result.errors} errors (${result.firstError})` : ""}`);
  });
}

async function finishMode(mode, closed, paced) {
  const { switchboard, counts } = mode;
  const drainStarted = Date.now();
  await auditDrained(switchboard, counts.calls, mode.governed);
  const drainMs = Date.now() - drainStarted;
  const heapAfter = heapAfterGc(switchboard.pid);
  const grown = largestGrowth(mode.classesBefore, liveClassBytes(switchboard.pid));
  const chain = mode.governed ? await request(switchboard, "GET", `/api/audit/verify?tenant=${TENANT}`) : { checked: 0, valid: true };
  const result = {
    credentials: mode.credentials.map(({ kind }) => kind),
    clients: CLIENTS,
    closed,
    paced,
    windowCalls: counts.calls - mode.callsBefore,
    errors: counts.failed - mode.failedBefore,
    refusals: counts.refused - mode.refusedBefore,
    firstFailure: counts.firstFailure,
    callsMade: counts.calls,
    auditRows: chain.checked,
    auditChainValid: chain.valid,
    auditDrainMs: drainMs,
    heapBeforeKb: mode.heapBefore,
    heapAfterKb: heapAfter,
    heapTrendKb: mode.heapTrend,
    grown,
  };
  console.log(`  governance ${mode.name}: ${result.errors} errors, ${result.refusals} refusals, audit rows ${result.auditRows} of ${result.callsMade} calls, `
    + `heap ${mb(mode.heapBefore)} -> ${mb(heapAfter)} MB (after each slice: ${mode.heapTrend.map(mb).join(", ")}; grew most: ${grown.map(({ name, kb }) => `${name} ${kb >= 0 ? "+" : ""}${mb(kb)}`).join(", ")})`
    + `${result.firstFailure ? ` (first failure: ${result.firstFailure})` : ""}`);
  return result;
}

/**
 * One local user of the tenant; half the clients use its access token (each its own, from /api/auth/token), half
 * its API keys (each its own). The tenant's policy allows the tool with a rate limit far above the load.
 */
async function governedCredentials(switchboard) {
  await api(switchboard, "/api/users", { ...USER, role: "user", tenant: TENANT });
  // the default tenant has no row of its own until one is created (without one it is unrestricted)
  await api(switchboard, "/api/tenants",
    { id: TENANT, policy: { tools: [TOOL], rateLimit: { requests: 1_000_000, per: "second", burst: 1_000_000 } } });
  const credentials = [];
  for (let i = 0; i < CLIENTS; i++) {
    const jwt = await userToken(switchboard.base, USER.username, USER.password);
    if (i % 2 === 0) {
      credentials.push({ kind: "jwt", headers: { Authorization: `Bearer ${jwt}` } });
    } else {
      const created = await request(switchboard, "POST", "/api/api-keys", { name: `bench-${i}` }, jwt);
      credentials.push({ kind: "api key", headers: { Authorization: `Bearer ${created.key}` } });
    }
  }
  return credentials;
}

/** The session, its tools/call counted: every call made, and its outcome (answered, refused by the rate limit, failed). */
function countingSession(session, counts) {
  const callTool = session.callTool.bind(session);
  session.callTool = async (name, args) => {
    counts.calls++;
    try {
      const result = await callTool(name, args);
      counts.ok++;
      return result;
    } catch (e) {
      if (e.message.includes(`JSON-RPC error ${RATE_LIMIT_REFUSED} `)) {
        counts.refused++;
      } else {
        counts.failed++;
        counts.firstFailure ??= e.message;
      }
      throw e;
    }
  };
  return session;
}

async function expectTool(session) {
  try {
    await session.initialize();
    if (!(await session.listTools()).some((tool) => tool.name === TOOL)) {
      throw new Error(`Switchboard /mcp does not list ${TOOL}`);
    }
  } finally {
    await session.close();
  }
}

/**
 * Waits until the audit writer has appended one row per call made: the tenant's newest row carries the chain's
 * sequence number, which counts its rows (a fresh data dir each run). Without audit there is nothing to wait for.
 */
async function auditDrained(switchboard, calls, audited) {
  if (!audited) {
    return;
  }
  const deadline = Date.now() + AUDIT_DRAIN_TIMEOUT_MS;
  let written = 0;
  while (Date.now() < deadline) {
    const page = await request(switchboard, "GET", `/api/audit?tenant=${TENANT}&limit=1`);
    written = page.data[0]?.chainSeq ?? 0;
    if (written >= calls) {
      return;
    }
    await sleep(500);
  }
  console.log(`  audit: ${written} of ${calls} rows after ${AUDIT_DRAIN_TIMEOUT_MS / 1000} s`);
}

/** KB of heap in use right after a full GC of the JVM (jcmd GC.run, then GC.heap_info: every generation's "used"). */
function heapAfterGc(pid) {
  execFileSync("jcmd", [String(pid), "GC.run"], { stdio: "ignore" });
  const info = execFileSync("jcmd", [String(pid), "GC.heap_info"], { encoding: "utf8" });
  const used = [...info.matchAll(/total \d+K, used (\d+)K/g)].map((match) => Number(match[1]));
  if (used.length === 0) {
    throw new Error(`no heap figures in jcmd GC.heap_info: ${info}`);
  }
  return used.reduce((a, b) => a + b, 0);
}

/** Bytes of live objects per class (jcmd GC.class_histogram, which collects first). */
function liveClassBytes(pid) {
  const histogram = execFileSync("jcmd", [String(pid), "GC.class_histogram"], { encoding: "utf8", maxBuffer: 64 << 20 });
  const bytes = new Map();
  for (const match of histogram.matchAll(/^\s*\d+:\s+\d+\s+(\d+)\s+(\S+)/gm)) {
    bytes.set(match[2], Number(match[1]));
  }
  return bytes;
}

/** The five classes whose live bytes grew most between two histograms, in KB: what a heap growth is made of. */
function largestGrowth(before, after) {
  return [...after].map(([name, bytes]) => ({ name, kb: (bytes - (before.get(name) ?? 0)) / 1024 }))
    .sort((a, b) => b.kb - a.kb).slice(0, 5);
}

const mb = (kb) => (kb / 1024).toFixed(1);

function governanceReport(results, offered) {
  const { on, off } = results;
  const rows = [["on", on], ["off", off]].flatMap(([name, r]) => [["closed loop", r.closed], [`paced ${offered}/s`, r.paced]]
    .map(([load, l]) => [name, load, ms(l.p50), ms(l.p99), ms(l.max), rate(l.throughput), l.late ?? "-", ms(l.cpuPerCall)]));
  const totals = [["on", on], ["off", off]].map(([name, r]) => [name, r.windowCalls, r.errors, r.refusals, r.callsMade,
    r.auditRows, mb(r.heapBeforeKb), mb(r.heapAfterKb)]);
  // a leak keeps growing; a cache (H2's pages, Liberty's buffers) grows to its size once: judged on the heap after
  // every measured slice, the later half of them against the first
  const heapOk = (r) => Math.max(...r.heapTrendKb.slice(Math.floor(r.heapTrendKb.length / 2)))
    <= (1 + HEAP_TOLERANCE) * r.heapTrendKb[0];
  const signed = (value) => (value >= 0 ? "+" : "") + ms(value);
  const checks = [
    verdict(on.errors === 0 && off.errors === 0, "no errors apart from intended rate-limit refusals",
      `on ${on.errors}, off ${off.errors} (refusals: on ${on.refusals}, off ${off.refusals})`),
    verdict(on.auditRows === on.callsMade && on.auditChainValid, "audit rows written = calls made (governance on), chain intact",
      `${on.auditRows} rows, ${on.callsMade} calls (warm-up included), chain ${on.auditChainValid ? "valid" : "BROKEN"}`),
    verdict(heapOk(on) && heapOk(off), `no heap growth after a GC over the measured slices (the later half within ${HEAP_TOLERANCE * 100}% of the first)`,
      `on ${mb(on.heapBeforeKb)} -> ${mb(on.heapAfterKb)} MB, off ${mb(off.heapBeforeKb)} -> ${mb(off.heapAfterKb)} MB `
      + `(after each slice: on ${on.heapTrendKb.map(mb).join(", ")}; off ${off.heapTrendKb.map(mb).join(", ")})`),
    verdict(on.paced.p50 - off.paced.p50 <= 1, `authentication, policy and audit add <= 1 ms at p50 (paced at ${offered} calls/s)`,
      `${signed(on.paced.p50 - off.paced.p50)} ms (p99 ${signed(on.paced.p99 - off.paced.p99)} ms)`),
  ];
  // on saturated cores a closed loop's p50 is about clients x CPU per call / cores: the queue, which throughput judges
  const saturated = `closed loop (saturated, not judged): on ${signed(on.closed.p50 - off.closed.p50)} ms at p50, `
    + `${(100 * on.closed.throughput / off.closed.throughput).toFixed(0)}% of off's throughput, `
    + `${signed(on.closed.cpuPerCall - off.closed.cpuPerCall)} ms of Switchboard CPU per call`;
  return `${CLIENTS} concurrent clients, governance on (JWT + API keys, policy binding, audit) vs off (anonymous, `
    + `no binding, audit disabled), bulkhead ${CLIENTS} in both, loaded in alternating slices:\n`
    + table(["governance", "load", "p50 ms", "p99 ms", "max ms", "calls/s", "late", "CPU ms/call"], rows)
    + "\n\n" + table(["governance", "calls measured", "errors", "refusals", "calls made", "audit rows", "heap MB before", "heap MB after"], totals)
    + `\n\nTargets (issue 4, under load):\n${checks.join("\n")}\n${saturated}`;
}
