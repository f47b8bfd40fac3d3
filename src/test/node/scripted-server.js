// A small, fully scripted MCP server over stdio for behaviour server-everything cannot show:
// paginated tools/list, tools/list_changed, server->client requests, cancellation, late answers, dying mid-call.
// Env PROTOCOL_VERSION: the version to answer initialize with (default: the one the client offered).
// Argument --list-scripted: tools/list also names the scripted tools (ask, hang, cancelled...), so a gateway, which
// calls only listed tools, lets its clients call them.
const readline = require("node:readline");

const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const text = (value) => ({ content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value) }] });

let generation = 0;
const cancelled = [];
const waitingForClient = new Map(); // our request id -> resolve

const SCRIPTED = process.argv.includes("--list-scripted") ? ["change", "hang", "late", "ask", "cancelled", "exit"] : [];

const pages = () => {
  const all = ["alpha", "beta", "gamma", "delta"].concat(generation > 0 ? ["epsilon"] : [], SCRIPTED);
  const tool = (name) => ({ name, description: "scripted tool " + name, inputSchema: { type: "object" } });
  return [all.slice(0, 2), all.slice(2, 3), all.slice(3)].map((names) => names.map(tool));
};

const askClient = (id, method, params) =>
  new Promise((resolve) => {
    waitingForClient.set(id, resolve);
    send({ jsonrpc: "2.0", id, method, params });
  });

const callTool = async (message) => {
  const { name } = message.params;
  switch (name) {
    case "change":
      generation++;
      send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
      return text("changed");
    case "hang":
      return null; // never answered
    case "late":
      await new Promise((r) => setTimeout(r, 700));
      return text("late answer");
    case "ask": {
      const answers = await Promise.all([
        askClient("s-ping", "ping", {}),
        askClient("s-sampling", "sampling/createMessage", { messages: [], maxTokens: 1 }),
        askClient("s-roots", "roots/list", {}),
      ]);
      return text(answers);
    }
    case "cancelled":
      return text(cancelled);
    case "exit":
      setTimeout(() => process.exit(3), 100);
      return null;
    default:
      return { content: [{ type: "text", text: "unknown tool " + name }], isError: true };
  }
};

readline.createInterface({ input: process.stdin }).on("line", async (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  if (message.method === undefined) {
    const resolve = waitingForClient.get(message.id);
    if (resolve) resolve(message);
    return;
  }
  switch (message.method) {
    case "initialize":
      send({
        jsonrpc: "2.0",
        id: message.id,
        result: {
          protocolVersion: process.env.PROTOCOL_VERSION || message.params.protocolVersion,
          capabilities: { tools: { listChanged: true } },
          serverInfo: { name: "scripted", version: "1.0.0" },
        },
      });
      return;
    case "notifications/initialized":
      return;
    case "notifications/cancelled":
      cancelled.push(message.params);
      return;
    case "ping":
      send({ jsonrpc: "2.0", id: message.id, result: {} });
      return;
    case "tools/list": {
      const index = { undefined: 0, p2: 1, p3: 2 }[message.params && message.params.cursor];
      const result = { tools: pages()[index] };
      if (index < 2) result.nextCursor = ["p2", "p3"][index];
      send({ jsonrpc: "2.0", id: message.id, result });
      return;
    }
    case "tools/call": {
      const result = await callTool(message);
      if (result) send({ jsonrpc: "2.0", id: message.id, result });
      return;
    }
    default:
      send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
  }
});
process.stderr.write("scripted server ready\n");
