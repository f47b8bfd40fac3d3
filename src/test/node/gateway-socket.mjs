// The official TypeScript SDK client over its WebSocketClientTransport against the gateway's WebSocket /mcp, then
// raw messages on a second socket. Usage: node gateway-socket.mjs <ws url> <bearer token or ""> '<steps as JSON>'
// The SDK transport calls `new WebSocket(url, "mcp")`; Node 20 has none, and a browser-style WebSocket cannot send
// headers, so the `ws` package stands in, with the Authorization header added.
import WebSocket from "ws";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";
import { tapProgress } from "./progress-tap.mjs";

const [url, token, stepsJson] = process.argv.slice(2);
const steps = JSON.parse(stepsJson ?? "[]");
const headers = token ? { Authorization: `Bearer ${token}` } : {};
globalThis.WebSocket = class extends WebSocket {
  constructor(address, protocols) {
    super(address, protocols, { headers });
  }
};

function failure(e) {
  return { error: { code: e?.code ?? null, message: String(e?.message ?? e) } };
}

// Sends raw texts on a fresh socket and collects one answer per text (or a close / handshake failure).
function raw(step) {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, step.protocols ?? [], { headers: { ...headers, ...(step.headers ?? {}) } });
    const answers = [];
    const done = (extra) => {
      socket.terminate();
      resolve({ answers, protocol: socket.protocol, ...extra });
    };
    socket.on("unexpected-response", (req, res) => done({ status: res.statusCode }));
    socket.on("error", (e) => done(failure(e)));
    socket.on("close", (code) => done({ closed: code }));
    // {"padded": n}: a ping padded past n characters, built here because a command line cannot hold it
    const texts = step.texts.map((t) => typeof t === "string" ? t
      : `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"_meta":{"pad":"${"x".repeat(t.padded)}"}}}`);
    socket.on("open", () => texts.forEach((t) => socket.send(t)));
    socket.on("message", (data) => {
      answers.push(JSON.parse(data.toString()));
      if (answers.length === step.texts.length) {
        done({});
      }
    });
    setTimeout(() => done({ timedOut: true }), step.timeoutMs ?? 10000);
  });
}

const output = { steps: [] };
for (const step of steps) {
  try {
    if (step.op === "raw") {
      output.steps.push({ op: "raw", ...(await raw(step)) });
      continue;
    }
    const client = new Client({ name: "switchboard-ws-client", version: "1.0.0" });
    const transport = new WebSocketClientTransport(new URL(url));
    const tap = tapProgress(client, transport);
    await client.connect(transport);
    const result = { op: step.op, capabilities: client.getServerCapabilities(), serverInfo: client.getServerVersion() };
    const tools = await client.listTools();
    result.tools = tools.tools.map((t) => t.name);
    result.nextCursor = tools.nextCursor ?? null;
    // {"call": tool} calls it once with progress; with "rounds" (and "parallel", calls at once per round) many times
    let single = {};
    if (step.call && step.rounds) {
      result.calls = await tap.calls(step.call, step.arguments, step.rounds, step.parallel ?? 1);
    } else if (step.call) {
      single = await tap.call(step.call, step.arguments);
    }
    await tap.settle();
    Object.assign(result, single, { sdkErrors: tap.sdkErrors });
    await client.close();
    output.steps.push(result);
  } catch (e) {
    output.steps.push({ op: step.op, ...failure(e) });
  }
}
process.stdout.write(JSON.stringify(output) + "\n");
process.exit(0);
