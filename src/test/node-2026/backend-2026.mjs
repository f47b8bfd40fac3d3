// An MCP server that speaks only 2026-07-28 (the stateless era), for the gateway's integration tests: the official
// TypeScript SDK v2 server (createMcpHandler with legacy: "reject", so a session-era initialize is refused) on plain
// node:http. Its tools: echo, add (with progress), approve-deploy (asks its client by input_required: a form
// elicitation), summarise (asks for sampling).
// Usage: node backend-2026.mjs <port>   Prints "listening <port>" once it accepts requests.
import http from "node:http";
import { Readable } from "node:stream";
import { McpServer, acceptedContent, createMcpHandler, inputRequired } from "@modelcontextprotocol/server";
import { z } from "zod";

const port = Number(process.argv[2] ?? 0);

function newServer() {
  const server = new McpServer({ name: "backend-2026", version: "1.0.0" });
  server.registerTool("echo", { description: "Echoes the message back", inputSchema: z.object({ message: z.string() }) },
    async ({ message }) => ({ content: [{ type: "text", text: `Echo (2026): ${message}` }] }));
  server.registerTool("add", { description: "Adds two numbers, reporting progress", inputSchema: z.object({ a: z.number(), b: z.number() }) },
    async ({ a, b }, ctx) => {
      const token = ctx.mcpReq?._meta?.progressToken;
      if (token !== undefined) {
        await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken: token, progress: 1, total: 2 } });
        await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken: token, progress: 2, total: 2 } });
      }
      return { content: [{ type: "text", text: `The sum of ${a} and ${b} is ${a + b}.` }] };
    });
  const approver = z.object({ name: z.string() });
  server.registerTool("approve-deploy", { description: "Deploys once someone approves", inputSchema: z.object({ env: z.string() }) },
    async ({ env }, ctx) => {
      const answer = ctx.mcpReq.inputResponses?.approver;
      if (!answer) {
        return inputRequired({ inputRequests: { approver: inputRequired.elicit({ message: `Who approves the deploy to ${env}?`, requestedSchema: approver }) } });
      }
      const approved = acceptedContent(ctx.mcpReq.inputResponses, "approver", approver);
      return { content: [{ type: "text", text: approved ? `Deploy to ${env} approved by ${approved.name}.` : `Deploy to ${env}: ${answer.action}.` }] };
    });
  server.registerTool("summarise", { description: "Asks the client's model for a summary", inputSchema: z.object({ text: z.string() }) },
    async ({ text }, ctx) => {
      const answer = ctx.mcpReq.inputResponses?.summary;
      if (!answer) {
        return inputRequired({ inputRequests: { summary: inputRequired.createMessage({ maxTokens: 50,
          messages: [{ role: "user", content: { type: "text", text: `Summarise: ${text}` } }] }) } });
      }
      return { content: [{ type: "text", text: `Summary from the client's model: ${answer.content?.text ?? JSON.stringify(answer)}` }] };
    });
  return server;
}

const handler = createMcpHandler(() => newServer(), { legacy: "reject" });

const httpServer = http.createServer(async (req, res) => {
  try {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    const request = new Request(`http://127.0.0.1:${port}${req.url}`, {
      method: req.method, headers: req.headers, body: ["GET", "HEAD"].includes(req.method) ? undefined : body });
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    if (response.body) {
      Readable.fromWeb(response.body).pipe(res);
    } else {
      res.end();
    }
  } catch (e) {
    res.writeHead(500, { "content-type": "text/plain" });
    res.end(String(e?.stack ?? e));
  }
});
httpServer.listen(port, "127.0.0.1", () => console.log(`listening ${httpServer.address().port}`));
