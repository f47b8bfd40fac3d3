// Load for the benchmarks, N clients, each its own MCP session, calling one tool. The first `warmupMs` is not
// recorded (JIT, pools, caches); then every call that starts inside the `measureMs` window is timed, and the window's
// completed calls give the throughput. Errors are counted, never retried.
// - runLoad: closed loop, each client calls back to back: the most the target sustains (every core busy).
// - runPacedLoad: open loop at a fixed rate: the time a target adds to a call while it keeps up.
import { cpuMillis } from "./cpu.mjs";
import { percentile } from "./stats.mjs";

const SESSION_SETUP_CONCURRENCY = 8;

/**
 * @param openSession () => session with initialize/callTool/close (a new MCP session each call)
 * @param args the tool's arguments, or a function giving each call's own (e.g. to keep a result cache cold)
 * @param cpuPid the process whose CPU time per call is reported (the gateway, or the backend when called directly)
 * @returns {{clients, calls, errors, firstError, throughput, p50, p99, max, cpuPerCall, latencies}} latencies and CPU
 *   in ms (latencies: every measured call's, ascending), throughput in calls/s
 */
export function runLoad({ openSession, tool, args, clients, warmupMs, measureMs, cpuPid }) {
  return measure({ openSession, tool, args, clients, warmupMs, measureMs, cpuPid }, (window, session, call) => async () => {
    for (;;) {
      const begin = performance.now();
      if (begin >= window.until) {
        return;
      }
      await call(session, begin, begin);
    }
  });
}

/**
 * Open loop: the clients together send `rate` calls per second on a fixed schedule (each client every clients/rate
 * s, the clients evenly out of phase), whatever the answers take. A call is timed from when the schedule says it is
 * due, so a call held back behind a slow one counts its wait too (no coordinated omission, as in wrk2). Below the
 * target's capacity this measures the time it adds to a call; a closed loop on saturated cores measures its queue.
 * @returns runLoad's figures plus `rate` (offered calls/s) and `late` (calls that started over one interval late:
 *   the target did not keep up)
 */
export async function runPacedLoad({ openSession, tool, args, clients, rate, warmupMs, measureMs, cpuPid }) {
  const interval = (clients * 1000) / rate;
  let late = 0;
  const result = await measure({ openSession, tool, args, clients, warmupMs, measureMs, cpuPid }, (window, session, call, i) => async () => {
    for (let due = window.start + (i * interval) / clients; due < window.until; due += interval) {
      const wait = due - performance.now();
      if (wait > 0) {
        await new Promise((resolve) => setTimeout(resolve, wait));
      } else if (-wait > interval && due >= window.from) {
        late++;
      }
      await call(session, due, performance.now());
    }
  });
  return { ...result, rate, late };
}

/** Opens the sessions, runs one `client(window, session, call, index)` loop per session, and sums up the window. */
async function measure({ openSession, tool, args, clients, warmupMs, measureMs, cpuPid }, client) {
  const sessions = [];
  const argsOf = typeof args === "function" ? args : () => args;
  try {
    for (let i = 0; i < clients; i += SESSION_SETUP_CONCURRENCY) {
      const batch = Array.from({ length: Math.min(SESSION_SETUP_CONCURRENCY, clients - i) }, async () => {
        const session = openSession();
        sessions.push(session);
        await session.initialize();
      });
      await Promise.all(batch);
    }
    const latencies = [];
    const outcome = { errors: 0, firstError: null };
    const start = performance.now();
    const window = { start, from: start + warmupMs, until: start + warmupMs + measureMs };
    // `due` is when the call was meant to start (its latency counts from there), `sent` when it did
    const call = async (session, due, sent) => {
      try {
        await session.callTool(tool, argsOf());
        if (sent >= window.from) {
          latencies.push(performance.now() - due);
        }
      } catch (e) {
        if (sent >= window.from) {
          outcome.errors++;
          outcome.firstError ??= e.message;
        }
      }
    };
    let cpuAtStart = NaN;
    const cpuSample = setTimeout(() => { cpuAtStart = cpuMillis(cpuPid); }, warmupMs);
    await Promise.all(sessions.map((session, i) => client(window, session, call, i)()));
    const elapsed = performance.now() - window.from;
    clearTimeout(cpuSample);
    const cpu = cpuMillis(cpuPid) - cpuAtStart;
    latencies.sort((a, b) => a - b);
    return {
      clients,
      calls: latencies.length,
      errors: outcome.errors,
      firstError: outcome.firstError,
      throughput: latencies.length / (elapsed / 1000),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1),
      cpuPerCall: cpu / latencies.length,
      latencies,
    };
  } finally {
    await Promise.all(sessions.map((session) => session.close()));
  }
}

/**
 * One result of several measured windows of the same target: all their calls' latencies, calls over the windows'
 * total time, CPU per call over all their calls, errors and late calls summed.
 */
function mergeResults(results) {
  const latencies = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const calls = results.reduce((sum, r) => sum + r.calls, 0);
  const seconds = results.reduce((sum, r) => sum + r.calls / r.throughput, 0);
  return {
    clients: results[0].clients,
    rate: results[0].rate,
    calls,
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    firstError: results.find((r) => r.firstError)?.firstError ?? null,
    late: results.some((r) => r.late !== undefined) ? results.reduce((sum, r) => sum + r.late, 0) : undefined,
    throughput: calls / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1),
    cpuPerCall: results.reduce((sum, r) => sum + r.cpuPerCall * r.calls, 0) / calls,
    latencies,
  };
}

/**
 * Runs `measure(target)` for every target (each with a `name`) in rounds, the order reversed every round, and merges
 * each target's rounds: the machine's other load and the backend (server-everything keeps every event it sent in
 * memory) change as a run goes on, and taking turns spreads that over all targets instead of favouring the first.
 * `onResult(target, result, round)` sees each round's own result.
 */
export async function inRounds(targets, rounds, measure, onResult = () => {}) {
  const parts = {};
  for (let round = 0; round < rounds; round++) {
    for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
      const result = await measure(target);
      (parts[target.name] ??= []).push(result);
      onResult(target, result, round);
    }
  }
  return Object.fromEntries(Object.entries(parts).map(([name, results]) => [name, mergeResults(results)]));
}
