// Hostile JSON benchmark (issue 15): every document of the hostile corpus (src/test/resources/hostile-json/corpus.json)
// sent to every entry point that reads JSON from outside, on a Switchboard of its own (HTTP 19540, the query dialect's
// TCP transport 19541, a hostile LLM provider 19542); per entry point the worst server CPU time per hostile request,
// read from the Liberty process's /proc before and after REPEATS sends of one document (the clock ticks every 10 ms,
// so one send alone is below its resolution). Entry points: REST (the audit look-up by input, which canonicalises what
// it is given), /mcp over HTTP and WebSocket, the query dialect over TCP, a stdio backend's answer to a tool call
// through /mcp, and an LLM provider's completion and stream chunk through POST /api/chat/completions.
// Before measuring, the corpus is sent round all entry points until the JVM's JIT compiler settles, as the other suites
// warm up: on a freshly started JVM every request also pays for compiling the server's code (the first run measured
// 14-25 ms of CPU for an ordinary request, and 52 ms for a 900 KB backend answer whose reading, parsing and writing cost
// ~3 ms once compiled). Target: at most 50 ms per hostile request. A benchmark reports; it does not fail the build.
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cpuMillis } from "./lib/cpu.mjs";
import { coldNotice, warmUntilJitSettles } from "./lib/jit.mjs";
import { McpSession } from "./lib/mcp-session.mjs";
import { startSwitchboard, request } from "./lib/switchboard.mjs";
import { ms, table, verdict } from "./lib/stats.mjs";
import { hostileDocuments, asAnswer } from "../src/test/node/hostile-corpus.mjs";

const PORTS = { switchboard: 19540, dialect: 19541, provider: 19542 };
const TARGET_MS = 50;
const CALL_PREFIX = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":';
const TIMEOUT_MS = 30_000;

/** @param ctx {repoDir, workDir, quick} */
export async function hostileBenchmark(ctx) {
  const repeats = ctx.quick ? 3 : 10;
  const documents = hostileDocuments();
  const provider = await startHostileProvider(documents);
  const switchboard = await startSwitchboard({ repoDir: ctx.repoDir, workDir: ctx.workDir, port: PORTS.switchboard,
    serverName: "switchboard-hostile", properties: {
      "query.tcp.host": "127.0.0.1",
      "query.tcp.port": PORTS.dialect,
      "query.limit.requests-per-minute": 100_000_000,
      "llm.base-url": `http://127.0.0.1:${PORTS.provider}/v1`,
      "llm.api-key": "bench-llm-key",
      "llm.model": "scripted-model",
    } });
  try {
    const server = await request(switchboard, "POST", "/api/mcp-servers", { name: "hostile", command: process.execPath,
      args: [path.join(ctx.repoDir, "src", "test", "node", "hostile-server.mjs")], scope: "shared" });
    const mcp = new McpSession(`${switchboard.base}/mcp`, { Authorization: `Bearer ${switchboard.token}` });
    await mcp.initialize();
    const socket = await rawWebSocket(`${switchboard.base.replace(/^http/, "ws")}/mcp`, switchboard.token);
    const dialect = await openLines(PORTS.dialect);
    const entryPoints = {
      "REST (audit look-up)": (doc) => httpPost(`${switchboard.base}/api/audit/search-by-input`, switchboard.token, auditLookup(doc.bytes)),
      "/mcp HTTP": (doc) => httpPost(`${switchboard.base}/mcp`, switchboard.token, doc.bytes, { Accept: "application/json, text/event-stream" }),
      "/mcp WebSocket": (doc) => socket.exchange(doc.bytes.toString("utf8")),
      "dialect TCP": (doc) => dialect.exchange(doc.bytes),
      "backend answer (stdio)": (doc) => mcp.request("tools/call", { name: "hostile__hostile", arguments: { doc: doc.name, mode: "answer" } }).catch((e) => e),
      "LLM completion": (doc) => chat(switchboard, doc, false),
      "LLM stream chunk": (doc) => chat(switchboard, doc, true),
    };
    console.log(`\n== Hostile JSON benchmark: ${documents.length} documents x ${Object.keys(entryPoints).length} entry points, `
      + `${repeats} sends each after one warm-up send; server CPU per send from /proc/${switchboard.pid}/stat\n`);
    // what an ordinary small request costs at each entry point, for reading the hostile figures against
    const baselineDoc = { name: "baseline", bytesOnly: false,
      bytes: Buffer.from(`${CALL_PREFIX}{"name":"echo","arguments":{"n":1}}}`) };
    const ordinary = (entry) => entry === "backend answer (stdio)"
      ? () => mcp.request("tools/call", { name: "hostile__echo", arguments: { n: 1 } }) : () => entryPoints[entry](baselineDoc);
    const sends = Object.keys(entryPoints).flatMap((entry) => [ordinary(entry),
      ...documents.filter((doc) => applies(entry, doc)).map((doc) => () => entryPoints[entry](doc))]);
    console.log("warming up switchboard (the corpus round every entry point, not recorded)");
    const warmed = await warmUntilJitSettles({ pid: switchboard.pid, fixedMs: ctx.options?.jvmWarmupMs, quick: ctx.quick,
      load: (ms) => sendFor(sends, ms) });
    console.log(`warm-up: ${warmed.summary}`);
    const cold = coldNotice([{ name: "switchboard", ...warmed }]);
    if (cold) {
      console.log(`\n${cold}\n`);
    }
    const baseline = {};
    const results = {};
    for (const [entry, send] of Object.entries(entryPoints)) {
      results[entry] = {};
      baseline[entry] = await cpuPerSend(switchboard, ordinary(entry), repeats);
      for (const doc of documents.filter((d) => applies(entry, d))) {
        results[entry][doc.name] = await cpuPerSend(switchboard, () => send(doc), repeats);
      }
      const worst = Object.entries(results[entry]).sort((a, b) => b[1] - a[1])[0];
      console.log(`  ${entry.padEnd(24)} worst ${ms(worst?.[1])} ms (${worst?.[0]}), an ordinary request ${ms(baseline[entry])} ms`);
    }
    await request(switchboard, "DELETE", `/api/mcp-servers/${server.id}`);
    socket.close();
    dialect.close();
    const health = await fetch(`${switchboard.base}/health/ready`);
    const rows = Object.entries(results).map(([entry, perDoc]) => {
      const [doc, worst] = Object.entries(perDoc).sort((a, b) => b[1] - a[1])[0] ?? ["-", NaN];
      return [entry, ms(worst), doc, ms(baseline[entry]), verdict(worst <= TARGET_MS, `<= ${TARGET_MS} ms`, `${ms(worst)} ms`)];
    });
    console.log(`\n${table(["entry point", "worst CPU ms/request", "document", "ordinary request", "target"], rows)}`);
    console.log(`\nserver ready afterwards: HTTP ${health.status}`);
    return { repeats, warmUp: warmed, cold: Boolean(cold), targetMs: TARGET_MS, perEntryPoint: results, ordinaryRequest: baseline,
      readyAfterwards: health.status };
  } finally {
    switchboard.stop();
    provider.close();
  }
}

/** Whether a document can be sent to an entry point: raw bytes go over HTTP and TCP only, an empty line is no message. */
function applies(entry, doc) {
  return !((entry === "/mcp WebSocket" && doc.bytesOnly) || (entry === "dialect TCP" && doc.bytes.length === 0)
    || (entry === "backend answer (stdio)" && !asAnswer(doc, 1)));
}

/** Unrecorded load for `ms`: the sends in turn, round and round; a refusal is an answer like any other. */
async function sendFor(sends, ms) {
  const until = performance.now() + ms;
  for (let i = 0; performance.now() < until; i = (i + 1) % sends.length) {
    await sends[i]();
  }
}

/** Server CPU per send (ms), over `repeats` sends after one warm-up send. */
async function cpuPerSend(switchboard, send, repeats) {
  await send();
  const before = cpuMillis(switchboard.pid);
  for (let i = 0; i < repeats; i++) {
    await send();
  }
  return (cpuMillis(switchboard.pid) - before) / repeats;
}

/** A tools/call document as the audit look-up's body: its params become the input looked for. */
function auditLookup(bytes) {
  const head = bytes.subarray(0, CALL_PREFIX.length).toString("latin1");
  return head === CALL_PREFIX ? Buffer.concat([Buffer.from('{"input":'), bytes.subarray(CALL_PREFIX.length)]) : bytes;
}

function httpPost(url, token, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", timeout: TIMEOUT_MS, headers: { Authorization: `Bearer ${token}`,
      "Content-Type": "application/json", "Content-Length": body.length, ...headers } }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error(`no answer from ${url} within ${TIMEOUT_MS} ms`)));
    req.end(body);
  });
}

function chat(switchboard, doc, stream) {
  return httpPost(`${switchboard.base}/api/chat/completions`, switchboard.token, Buffer.from(JSON.stringify({
    model: "scripted-model", stream, messages: [{ role: "user", content: `hostile:${doc.name}` }] })));
}

/** An OpenAI-compatible provider whose answer is the hostile document named in the last user message. */
async function startHostileProvider(documents) {
  const byName = new Map(documents.map((d) => [d.name, d]));
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const name = /hostile:([\w-]+)/.exec(JSON.stringify(body.messages))?.[1];
      // any other name (the ordinary request) gets an ordinary answer
      const ordinary = body.stream
        ? '{"choices":[{"index":0,"delta":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}'
        : '{"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}';
      const doc = byName.get(name) ?? { bytes: Buffer.from(ordinary) };
      if (body.stream) {
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        res.end(Buffer.concat([Buffer.from("data: "), doc.bytes, Buffer.from("\n\ndata: [DONE]\n\n")]));
      } else {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(doc.bytes);
      }
    });
  });
  await new Promise((resolve) => server.listen(PORTS.provider, "127.0.0.1", resolve));
  return server;
}

/**
 * /mcp over WebSocket with the bearer token in the upgrade request (node 20's WebSocket, where there is one, sends no
 * headers): a minimal client over a TCP socket, masked text frames out, one whole text message back per message.
 */
async function rawWebSocket(url, token) {
  const { hostname, port, pathname } = new URL(url);
  const tcp = net.connect({ host: hostname, port: Number(port) });
  await new Promise((resolve, reject) => { tcp.once("connect", resolve); tcp.once("error", reject); });
  const key = Buffer.from(Array.from({ length: 16 }, () => Math.floor(Math.random() * 256))).toString("base64");
  tcp.write(`GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n`
    + `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer ${token}\r\n\r\n`);
  let buffer = Buffer.alloc(0);
  let upgraded = false;
  let waiting = null;
  const frames = [];
  let message = [];
  tcp.on("data", (data) => {
    buffer = Buffer.concat([buffer, data]);
    if (!upgraded) {
      const end = buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString("latin1");
      if (!head.startsWith("HTTP/1.1 101")) throw new Error(`WebSocket upgrade refused: ${head.split("\r\n")[0]}`);
      upgraded = true;
      buffer = buffer.subarray(end + 4);
      waiting?.upgrade();
    }
    for (;;) {
      if (buffer.length < 2) return;
      const fin = (buffer[0] & 0x80) !== 0;
      let length = buffer[1] & 0x7f;
      let offset = 2;
      if (length === 126) { if (buffer.length < 4) return; length = buffer.readUInt16BE(2); offset = 4; }
      else if (length === 127) { if (buffer.length < 10) return; length = Number(buffer.readBigUInt64BE(2)); offset = 10; }
      if (buffer.length < offset + length) return;
      message.push(buffer.subarray(offset, offset + length));
      buffer = buffer.subarray(offset + length);
      if (fin) {
        frames.push(Buffer.concat(message).toString("utf8"));
        message = [];
        waiting?.frame();
      }
    }
  });
  await new Promise((resolve) => { waiting = { upgrade: resolve, frame: () => {} }; if (upgraded) resolve(); });
  const send = (text) => {
    const payload = Buffer.from(text, "utf8");
    const mask = Buffer.from([1, 2, 3, 4]);
    const head = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length])
      : payload.length < 65536 ? Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff])
        : Buffer.concat([Buffer.from([0x81, 0x80 | 127]), (() => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(payload.length)); return b; })()]);
    const masked = Buffer.alloc(payload.length);
    for (let i = 0; i < payload.length; i++) masked[i] = payload[i] ^ mask[i % 4];
    tcp.write(Buffer.concat([head, mask, masked]));
  };
  return {
    exchange: (text) => new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no WebSocket answer")), TIMEOUT_MS);
      waiting = { frame: () => { clearTimeout(timer); resolve(frames.shift()); } };
      send(text);
    }),
    close: () => tcp.destroy(),
  };
}

/** The query dialect over TCP: one line out, one line back. */
async function openLines(port) {
  const tcp = net.connect({ host: "127.0.0.1", port });
  await new Promise((resolve, reject) => { tcp.once("connect", resolve); tcp.once("error", reject); });
  let buffer = "";
  let waiting = null;
  tcp.setEncoding("utf8");
  tcp.on("data", (text) => {
    buffer += text;
    let newline;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      waiting?.(line);
    }
  });
  return {
    exchange: (bytes) => new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no dialect answer")), TIMEOUT_MS);
      waiting = (line) => { clearTimeout(timer); resolve(line); };
      tcp.write(Buffer.concat([bytes, Buffer.from("\n")]));
    }),
    close: () => tcp.destroy(),
  };
}
