// A client of MCP 2026-07-28 (the stateless era) for the gateway's integration tests: the official TypeScript SDK v2
// Client, pinned to 2026-07-28, over its StreamableHTTPClientTransport. Every HTTP exchange is recorded (the request
// body, the status, every JSON-RPC message of the answer), so the test can check each message against the schema.
// Usage: node gateway-client-2026.mjs <url> <bearer token> '<steps as JSON array>'
// Prints one JSON object: the negotiated version, what the server said of itself, each step's outcome, the wire.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const [url, token, stepsJson] = process.argv.slice(2);
const steps = JSON.parse(stepsJson ?? "[]");

const wire = [];
async function recordingFetch(input, init) {
  const response = await fetch(input, init);
  const exchange = { method: init?.method ?? "GET", headers: headersOf(init?.headers), status: response.status,
    sent: parse(init?.body), received: [] };
  wire.push(exchange);
  const type = response.headers.get("content-type") ?? "";
  const copy = response.clone();
  if (type.includes("application/json")) {
    exchange.received.push(parse(await copy.text()));
  } else if (type.includes("text/event-stream")) {
    // read on the side; the SDK reads the original
    copy.text().then((text) => {
      for (const line of text.split(/\r?\n/)) {
        if (line.startsWith("data:") && line.substring(5).trim()) {
          exchange.received.push(parse(line.substring(5).trim()));
        }
      }
    }).catch(() => {});
  }
  return response;
}
function headersOf(headers) {
  const out = {};
  new Headers(headers ?? {}).forEach((value, name) => { if (name !== "authorization") out[name] = value; });
  return out;
}
function parse(text) {
  if (typeof text !== "string") return null;
  try { return JSON.parse(text); } catch { return { unparsed: text }; }
}

const transport = new StreamableHTTPClientTransport(new URL(url),
  { requestInit: { headers: { Authorization: `Bearer ${token}` } }, fetch: recordingFetch });
// a step {"op":"declare","capabilities":{"sampling":{},"elicitation":{},"roots":{}}} makes the client declare those and
// answer what it is asked under them (the SDK's multi round-trip driver fulfils input_required results with these)
const declared = Object.assign({}, ...steps.filter((s) => s.op === "declare").map((s) => s.capabilities));
const client = new Client({ name: "switchboard-it-client-2026", version: "1.0.0" },
  { capabilities: declared, versionNegotiation: { mode: { pin: "2026-07-28" } } });
const asked = [];
if (declared.sampling) {
  client.setRequestHandler("sampling/createMessage", async (request) => {
    asked.push({ method: "sampling/createMessage", params: request.params });
    return { role: "assistant", content: { type: "text", text: "sampled by the 2026 client" }, model: "it-model", stopReason: "endTurn" };
  });
}
if (declared.elicitation) {
  client.setRequestHandler("elicitation/create", async (request) => {
    asked.push({ method: "elicitation/create", params: request.params });
    return { action: "decline" };
  });
}
if (declared.roots) {
  client.setRequestHandler("roots/list", async (request) => {
    asked.push({ method: "roots/list", params: request.params ?? {} });
    return { roots: [{ uri: "file:///srv/it-root", name: "it root" }] };
  });
}

function failure(e) {
  return { error: { code: e?.code ?? null, message: String(e?.message ?? e), name: e?.name ?? null, data: e?.data ?? null } };
}

async function all(list, field) {
  const items = [];
  let cursor;
  let pages = 0;
  do {
    const page = await list(cursor ? { cursor } : {});
    items.push(...page[field]);
    cursor = page.nextCursor;
  } while (cursor && ++pages < 200);
  return { items, pages: pages + 1 };
}

async function run(step) {
  switch (step.op) {
    case "listAll": {
      const { items, pages } = await all((cursor) => client.listTools(cursor), "tools");
      return { names: items.map((t) => t.name), pages };
    }
    case "call": {
      const progress = [];
      const options = { timeout: step.timeoutMs ?? 60000 };
      if (step.progress) options.onprogress = (p) => progress.push(p);
      const result = await client.callTool({ name: step.name, arguments: step.arguments ?? {} }, options);
      return { result, progress };
    }
    case "listResources":
      return await all((cursor) => client.listResources(cursor), "resources");
    case "listResourceTemplates":
      return await all((cursor) => client.listResourceTemplates(cursor), "resourceTemplates");
    case "listPrompts":
      return await all((cursor) => client.listPrompts(cursor), "prompts");
    case "readResource":
      return { result: await client.readResource({ uri: step.uri }) };
    case "getPrompt":
      return { result: await client.getPrompt({ name: step.name, arguments: step.arguments ?? {} }) };
    case "complete":
      return { result: await client.complete({ ref: step.ref, argument: step.argument }) };
    case "declare":
      return { declared };
    default:
      throw new Error(`unknown step ${step.op}`);
  }
}

const output = { steps: [] };
try {
  await client.connect(transport);
  output.connected = {
    protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
    serverInfo: client.getServerVersion() ?? null,
    capabilities: client.getServerCapabilities() ?? null,
  };
  for (const step of steps) {
    try {
      output.steps.push({ op: step.op, ...(await run(step)) });
    } catch (e) {
      output.steps.push({ op: step.op, ...failure(e) });
    }
  }
  await client.close();
} catch (e) {
  output.fatal = failure(e);
}
// let the side readers of SSE answers finish
await new Promise((resolve) => setTimeout(resolve, 200));
output.asked = asked;
output.wire = wire;
process.stdout.write(JSON.stringify(output) + "\n");
process.exit(0);
