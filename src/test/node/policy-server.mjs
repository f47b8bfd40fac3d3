// A small MCP server (official TypeScript SDK, stdio) for the gateway's policy tests. Every call of a tool appends
// its token to the state file given as the first argument, so a test can count exactly how often the gateway called.
//   count(token, delay_ms?): answers the number of calls with this token so far (after delay_ms, to overlap calls)
//   fail_once(token): the first call with a token kills this process (the gateway sees a transport failure);
//                     later calls, in a new process, answer "attempt N"
//   hidden(token):    a tool the tests' allowlists leave out
// plus a prompt "greeting" and a resource "note://one", for the prompt/resource backend rules.
import fs from "node:fs";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const stateFile = process.argv[2];

function record(token) {
  fs.appendFileSync(stateFile, token + "\n");
  return fs.readFileSync(stateFile, "utf8").split("\n").filter((line) => line === token).length;
}

const server = new McpServer({ name: "policy-test-server", version: "1.0.0" });
const token = { token: z.string() };
server.registerTool("count", { description: "Counts calls per token", inputSchema: { ...token, delay_ms: z.number().optional() } },
  async ({ token, delay_ms }) => {
    const call = record(token);
    await new Promise((resolve) => setTimeout(resolve, delay_ms ?? 0));
    return { content: [{ type: "text", text: `call ${call}` }] };
  });
server.registerTool("fail_once", { description: "Dies on the first call of each token", inputSchema: token },
  async ({ token }) => {
    const attempt = record(token);
    if (attempt === 1) {
      process.exit(1);
    }
    return { content: [{ type: "text", text: `attempt ${attempt}` }] };
  });
server.registerTool("hidden", { description: "Left out by allowlists", inputSchema: token },
  async ({ token }) => ({ content: [{ type: "text", text: `hidden ${record(token)}` }] }));
server.registerPrompt("greeting", { description: "A greeting" },
  async () => ({ messages: [{ role: "user", content: { type: "text", text: "hello" } }] }));
server.registerResource("note", "note://one", { mimeType: "text/plain" },
  async (uri) => ({ contents: [{ uri: uri.href, text: "a note" }] }));

await server.connect(new StdioServerTransport());
