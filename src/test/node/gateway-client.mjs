// An independent MCP client for the gateway's integration tests: the official TypeScript SDK's Client over its
// StreamableHTTPClientTransport, its SSEClientTransport (legacy HTTP+SSE) for a URL ending in /sse, or its
// StdioClientTransport running the stdio launcher (tools/SwitchboardStdio.java) for a URL written stdio:<gateway url>.
// Usage: [MCP_CLIENT_NAME=name] node gateway-client.mjs <url> <bearer token> '<steps as JSON array>'
// Prints one JSON object: what initialize negotiated and the outcome of every step, in order.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import path from "node:path";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { tapProgress } from "./progress-tap.mjs";
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema, LoggingMessageNotificationSchema }
  from "@modelcontextprotocol/sdk/types.js";

const [url, token, stepsJson] = process.argv.slice(2);
const steps = JSON.parse(stepsJson ?? "[]");

const auth = { requestInit: { headers: { Authorization: `Bearer ${token}` } } };
function transportFor(url) {
  if (url.startsWith("stdio:")) {
    // the script runs in target/node; the launcher is a source file of the project
    const launcher = path.resolve(process.cwd(), "../../tools/SwitchboardStdio.java");
    return new StdioClientTransport({ command: "java", args: [launcher], stderr: "inherit",
      env: { ...process.env, SWITCHBOARD_URL: url.substring("stdio:".length), SWITCHBOARD_TOKEN: token } });
  }
  return url.endsWith("/sse") ? new SSEClientTransport(new URL(url), auth) : new StreamableHTTPClientTransport(new URL(url), auth);
}
const transport = transportFor(url);
// The client offers sampling, elicitation and roots, answers them with fixed values, and records what it was asked.
// MCP_CLIENT_NAME names the client in initialize, so a test can find its session among others
// a step {"op":"declare","capabilities":{...}} adds to (or replaces) the capabilities the client declares, e.g. URL-mode
// elicitation: {"elicitation":{"form":{},"url":{}}}
const declared = Object.assign({ sampling: {}, elicitation: {}, roots: { listChanged: true } },
  ...steps.filter((s) => s.op === "declare").map((s) => s.capabilities));
const client = new Client({ name: process.env.MCP_CLIENT_NAME || "switchboard-it-client", version: "1.0.0" },
  { capabilities: declared });
const tap = tapProgress(client, transport);
const asked = [];
client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
  asked.push({ method: request.method, params: request.params });
  return { model: "it-model", role: "assistant", content: { type: "text", text: "sampled by the IT client" } };
});
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  asked.push({ method: request.method, params: request.params });
  if (request.params?.mode === "url") return { action: "accept" };
  return { action: "accept", content: { name: "Grace Hopper" } };
});
client.setRequestHandler(ListRootsRequestSchema, async (request) => {
  asked.push({ method: request.method });
  return { roots: [{ uri: "file:///it-root", name: "it-root" }] };
});

// log messages the server sends (backends' notifications/message, relayed by the gateway)
const logs = [];
client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
  logs.push(notification.params);
});

function failure(e) {
  return { error: { code: e?.code ?? null, message: String(e?.message ?? e), name: e?.name ?? null } };
}

// every page of a list, following nextCursor
async function all(list, field) {
  const items = [];
  let cursor;
  let pages = 0;
  do {
    const page = await list(cursor ? { cursor } : {});
    items.push(...page[field]);
    cursor = page.nextCursor;
  } while (cursor && ++pages < 200);
  return items;
}

async function run(step) {
  switch (step.op) {
    case "declare":
      return { declared };
    case "callAsTask": {
      // the SDK's own task flow: tools/call with params.task, then tasks/get until it ends, then tasks/result
      const messages = [];
      const stream = client.experimental.tasks.callToolStream({ name: step.name, arguments: step.arguments ?? {} }, undefined,
        { task: { ttl: step.ttl ?? 60000 }, timeout: step.timeoutMs ?? 60000 });
      for await (const message of stream) {
        messages.push(message.type === "error" ? { type: "error", error: { code: message.error?.code ?? null, message: String(message.error?.message) } } : message);
      }
      return { messages };
    }
    case "listTasks":
      return { result: await client.experimental.tasks.listTasks() };
    case "getTask":
      return { result: await client.experimental.tasks.getTask(step.taskId) };
    case "listAll": {
      const names = [];
      const pages = [];
      let cursor;
      do {
        const page = await client.listTools(cursor ? { cursor } : {});
        pages.push(page.tools.length);
        names.push(...page.tools.map((t) => t.name));
        cursor = page.nextCursor;
      } while (cursor && pages.length < 200);
      return { names, pages };
    }
    case "call": {
      if (step.progress) {
        // with "rounds" (and "parallel", calls at once per round), many calls
        const outcome = step.rounds ? { calls: await tap.calls(step.name, step.arguments, step.rounds, step.parallel ?? 1) }
          : await tap.call(step.name, step.arguments, { timeout: step.timeoutMs ?? 60000 });
        await tap.settle();
        return { ...outcome, sdkErrors: tap.sdkErrors };
      }
      const result = await client.callTool({ name: step.name, arguments: step.arguments ?? {} }, undefined,
        { timeout: step.timeoutMs ?? 60000 });
      return { result, progress: [] };
    }
    case "cancel": {
      // aborting makes the SDK send notifications/cancelled for the request
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort("test cancels"), step.afterMs ?? 500);
      try {
        await client.callTool({ name: step.name, arguments: step.arguments ?? {} }, undefined, { signal: controller.signal });
        return { aborted: false, ms: Date.now() - started };
      } catch (e) {
        return { aborted: controller.signal.aborted, ms: Date.now() - started, ...failure(e) };
      }
    }
    case "ping":
      return { result: await client.ping() };
    case "rootsChanged": {
      // tells the server the roots changed, then gives its backends time to ask for them
      await client.sendRootsListChanged();
      await new Promise((resolve) => setTimeout(resolve, step.waitMs ?? 3000));
      return {};
    }
    case "wait":
      await new Promise((resolve) => setTimeout(resolve, step.ms ?? 1000));
      return {};
    case "listResources":
      return { items: await all((cursor) => client.listResources(cursor), "resources") };
    case "listResourceTemplates":
      return { items: await all((cursor) => client.listResourceTemplates(cursor), "resourceTemplates") };
    case "listPrompts":
      return { items: await all((cursor) => client.listPrompts(cursor), "prompts") };
    case "readResource":
      return { result: await client.readResource({ uri: step.uri }) };
    case "subscribe":
      return { result: await client.subscribeResource({ uri: step.uri }) };
    case "unsubscribe":
      return { result: await client.unsubscribeResource({ uri: step.uri }) };
    case "getPrompt":
      return { result: await client.getPrompt({ name: step.name, arguments: step.arguments ?? {} }) };
    case "complete":
      return { result: await client.complete({ ref: step.ref, argument: step.argument }) };
    case "setLevel":
      return { result: await client.setLoggingLevel(step.level) };
    default:
      throw new Error(`unknown step ${step.op}`);
  }
}

const output = { steps: [] };
try {
  await client.connect(transport);
  output.initialize = {
    serverInfo: client.getServerVersion(),
    capabilities: client.getServerCapabilities(),
    protocolVersion: transport.protocolVersion ?? null,
    sessionId: transport.sessionId ?? null,
  };
  for (const step of steps) {
    try {
      output.steps.push({ op: step.op, ...(await run(step)) });
    } catch (e) {
      output.steps.push({ op: step.op, ...failure(e) });
    }
  }
  output.asked = asked;
  output.logs = logs;
  await transport.terminateSession?.();
  await client.close();
} catch (e) {
  output.fatal = failure(e);
}
process.stdout.write(JSON.stringify(output) + "\n");
process.exit(0);
