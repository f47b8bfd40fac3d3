// Test-only MCP backend on the official SDK's Streamable HTTP server transport (stateless) that appends every HTTP
// request it receives to a file as one JSON line: method, JSON-RPC method, tool name and all headers. It proves
// what a backend gets from the gateway (no caller credentials, its own configured headers, the trace).
// Tools: echo {message}, sleep {ms}. Usage: node recording-server.mjs <port> <record file>
import http from "node:http";
import fs from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [port, file] = process.argv.slice(2);

function mcpServer() {
  const server = new Server({ name: "recording", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: "echo", description: "Echoes the message", inputSchema: { type: "object", properties: { message: { type: "string" } } } },
      { name: "sleep", description: "Answers after ms milliseconds", inputSchema: { type: "object", properties: { ms: { type: "number" } } } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const args = request.params.arguments ?? {};
    if (request.params.name === "sleep") {
      await new Promise((resolve) => setTimeout(resolve, Number(args.ms ?? 0)));
      return { content: [{ type: "text", text: `slept ${args.ms}` }] };
    }
    return { content: [{ type: "text", text: `echo: ${args.message ?? ""}` }] };
  });
  return server;
}

http.createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString("utf8");
  let body;
  try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
  fs.appendFileSync(file, JSON.stringify({ method: req.method, rpc: body?.method ?? null,
    tool: body?.params?.name ?? null, headers: req.headers }) + "\n");
  if (req.method !== "POST") {
    res.writeHead(405).end();
    return;
  }
  const server = mcpServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on("close", () => { transport.close(); server.close(); });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}).listen(Number(port), "127.0.0.1", () => process.stdout.write(`listening ${port}\n`));
