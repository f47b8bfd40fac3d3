// Chat first-byte benchmark (issue 5): streamed chat completions (stream=true) from the scripted provider, directly
// and through Switchboard's POST /api/chat/completions, at 1 and 50 concurrent streams, in one run. Per stream:
// time to the first body byte, to the first content chunk, and to the end; a stream that fails, ends early or
// carries other text than the provider sent is lost.
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cpuMillis } from "./lib/cpu.mjs";
import { REPLY } from "./lib/scripted-provider.mjs";
import { answersHttp, start, waitFor } from "./lib/processes.mjs";
import { coldNotice, warmUntilJitSettles } from "./lib/jit.mjs";
import { startRecording } from "./lib/profile.mjs";
import { ms, percentile, table, verdict } from "./lib/stats.mjs";

export const PROVIDER_PORT = 19401;
const CONCURRENCY = [1, 50];
const TIMEOUT_MS = 30_000;
// a freshly started JVM interprets and compiles for a while (the gateway benchmark warms up the same way)
const JVM_WARMUP_CLIENTS = 8;

/** @param ctx {switchboard, workDir, logDir, quick, options: {profile?}} */
export async function chatBenchmark(ctx) {
  const { switchboard, logDir, quick } = ctx;
  const rounds = quick ? { warmup: 2, measured: 10 } : { warmup: 30, measured: 100 };
  if (await answersHttp(PROVIDER_PORT)) {
    throw new Error(`port ${PROVIDER_PORT} of the scripted provider is already in use (another chat benchmark run?)`);
  }
  const provider = start("scripted-provider", process.execPath,
    [path.join(path.dirname(fileURLToPath(import.meta.url)), "lib", "scripted-provider.mjs"), String(PROVIDER_PORT)], { logDir });
  await waitFor("scripted provider", () => answersHttp(PROVIDER_PORT), 30_000, provider);
  const targets = [
    { name: "direct", url: `http://127.0.0.1:${PROVIDER_PORT}/v1/chat/completions`, headers: {}, pid: provider.pid },
    { name: "switchboard", url: `${switchboard.base}/api/chat/completions`, headers: { Authorization: `Bearer ${switchboard.token}` },
      pid: switchboard.pid },
  ];
  console.log(`\n== Chat benchmark: streamed completions of ${Math.ceil(REPLY.length / 4) + 2} chunks; per stream slot `
    + `${rounds.warmup} warm-up and ${rounds.measured} measured streams (at 50 slots: ${Math.max(1, Math.round(rounds.measured / 10))} each)\n`);
  // also with --quick, which gives up sooner and then says its figures are cold
  const sb = targets.find(({ name }) => name === "switchboard");
  console.log(`warming up switchboard (streams from ${JVM_WARMUP_CLIENTS} clients, not recorded)`);
  const warmed = await warmUntilJitSettles({ pid: sb.pid, fixedMs: ctx.options.jvmWarmupMs, quick, load: (ms) => warmUp(sb, ms) });
  console.log(`warm-up: ${warmed.summary}`);
  const cold = coldNotice([{ name: "switchboard", ...warmed }]);
  if (cold) {
    console.log(`\n${cold}`);
  }
  const recording = ctx.options.profile ? startRecording(ctx, "chat") : null;
  const results = {};
  for (const streams of CONCURRENCY) {
    // 50 slots x (measured / 10) streams keeps the run short and still gives hundreds of samples
    const perSlot = streams === 1 ? rounds : { warmup: Math.max(1, Math.round(rounds.warmup / 5)), measured: Math.max(1, Math.round(rounds.measured / 10)) };
    for (const target of targets) {
      const result = await runStreams(target, streams, perSlot);
      (results[target.name] ??= {})[streams] = result;
      console.log(`  ${target.name.padEnd(12)} ${String(streams).padStart(2)} streams: first byte p50 ${ms(result.firstByte.p50)} ms, `
        + `total p50 ${ms(result.total.p50)} ms, CPU ${ms(result.cpuPerStream)} ms/stream, lost ${result.lost}/${result.streams}${result.firstLoss ? ` (${result.firstLoss})` : ""}`);
    }
  }
  const report = `${cold ? `${cold}\n\n` : ""}${chatReport(results)}`;
  console.log(`\n${report}`);
  if (recording) {
    console.log(`\n${recording.stop()}`);
  }
  return { rounds, warmUp: warmed, cold: Boolean(cold), results, report };
}

async function runStreams(target, slots, { warmup, measured }) {
  const samples = { firstByte: [], firstContent: [], total: [] };
  const cpuBefore = cpuMillis(target.pid);
  const outcome = { lost: 0, firstLoss: null };
  await Promise.all(Array.from({ length: slots }, async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < warmup + measured; i++) {
        const result = await stream(target, agent).catch((e) => ({ error: e.message }));
        if (i < warmup) {
          continue;
        }
        if (result.error) {
          outcome.lost++;
          outcome.firstLoss ??= result.error;
        } else {
          samples.firstByte.push(result.firstByte);
          samples.firstContent.push(result.firstContent);
          samples.total.push(result.total);
        }
      }
    } finally {
      agent.destroy();
    }
  }));
  const summary = (values) => {
    values.sort((a, b) => a - b);
    return { p50: percentile(values, 50), p99: percentile(values, 99) };
  };
  // CPU of the serving process (the provider, or Switchboard) over warm-up and measured streams alike
  const cpuPerStream = (cpuMillis(target.pid) - cpuBefore) / (slots * (warmup + measured));
  return { streams: slots * measured, lost: outcome.lost, cpuPerStream, firstLoss: outcome.firstLoss,
    firstByte: summary(samples.firstByte), firstContent: summary(samples.firstContent), total: summary(samples.total) };
}

/** Closed-loop streams for warmupMs; nothing is recorded, failures included. */
async function warmUp(target, warmupMs) {
  const until = Date.now() + warmupMs;
  await Promise.all(Array.from({ length: JVM_WARMUP_CLIENTS }, async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      while (Date.now() < until) {
        await stream(target, agent).catch(() => {});
      }
    } finally {
      agent.destroy();
    }
  }));
}

/** One streamed completion; resolves with its timings, rejects when it is lost. */
function stream(target, agent) {
  const url = new URL(target.url);
  const payload = JSON.stringify({ model: "scripted-model", stream: true,
    messages: [{ role: "user", content: "Say the scripted reply." }] });
  return new Promise((resolve, reject) => {
    const begin = performance.now();
    const req = http.request({ agent, host: url.hostname, port: url.port, path: url.pathname, method: "POST", timeout: TIMEOUT_MS,
      headers: { ...target.headers, "Content-Type": "application/json", Accept: "text/event-stream", "Content-Length": Buffer.byteLength(payload) } }, (res) => {
      let firstByte = null;
      let firstContent = null;
      let text = "";
      let buffer = "";
      let done = false;
      res.setEncoding("utf8");
      res.on("data", (data) => {
        firstByte ??= performance.now() - begin;
        buffer += data;
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          for (const line of event.split("\n").filter((l) => l.startsWith("data:"))) {
            const value = line.slice(5).trim();
            if (value === "[DONE]") {
              done = true;
              continue;
            }
            const content = JSON.parse(value).choices?.[0]?.delta?.content;
            if (content) {
              firstContent ??= performance.now() - begin;
              text += content;
            }
          }
        }
      });
      res.on("end", () => {
        if (res.statusCode !== 200) {
          reject(new Error(`HTTP ${res.statusCode} ${buffer.slice(0, 200)}`));
        } else if (!done || text !== REPLY) {
          reject(new Error(`stream ended ${done ? "with other text" : "before [DONE]"}: '${text.slice(0, 60)}'`));
        } else {
          resolve({ firstByte, firstContent, total: performance.now() - begin });
        }
      });
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no end within ${TIMEOUT_MS} ms`)));
    req.on("error", reject);
    req.end(payload);
  });
}

function chatReport(results) {
  const sections = CONCURRENCY.map((streams) => {
    const base = results.direct[streams];
    const rows = Object.entries(results).map(([name, byStreams]) => [name, byStreams[streams]]).map(([name, r]) => [name,
      ms(r.firstByte.p50), ms(r.firstByte.p99), ms(r.firstContent.p50), ms(r.firstContent.p99), ms(r.total.p50), ms(r.total.p99),
      ms(r.cpuPerStream), name === "direct" ? "-" : signedMs(r.firstByte.p50 - base.firstByte.p50), `${r.lost}/${r.streams}`]);
    return `${streams} concurrent stream${streams === 1 ? "" : "s"}:\n` + table(["target", "first byte p50", "p99",
      "first content p50", "p99", "total p50", "p99", "CPU ms/stream", "+first byte p50", "lost"], rows);
  });
  const checks = CONCURRENCY.map((streams) => {
    const added = results.switchboard[streams].firstByte.p50 - results.direct[streams].firstByte.p50;
    return verdict(added <= 5, `Switchboard adds <= 5 ms to the first byte at p50 (${streams} stream${streams === 1 ? "" : "s"})`, `${signedMs(added)} ms`);
  });
  const sb50 = results.switchboard[50];
  checks.push(verdict(sb50.lost === 0, "no stream lost through Switchboard at 50 concurrent streams", `${sb50.lost} of ${sb50.streams} lost`));
  return `${sections.join("\n\n")}\n\nTargets (issue 5):\n${checks.join("\n")}`;
}

const signedMs = (value) => (Number.isFinite(value) ? `${value >= 0 ? "+" : ""}${value.toFixed(2)}` : "-");
