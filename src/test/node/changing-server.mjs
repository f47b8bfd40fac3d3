// A small MCP server (official TypeScript SDK 1.x, stdio) whose tool list changes on request, for the tests of list
// change notifications: add_tool(name) registers a tool of that name, and the SDK announces
// notifications/tools/list_changed to the client (the gateway).
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "changing-test-server", version: "1.0.0" });
server.registerTool("add_tool", { description: "Adds a tool of the given name", inputSchema: { name: z.string() } },
  async ({ name }) => {
    server.registerTool(name, { description: `Added at run time: ${name}` },
      async () => ({ content: [{ type: "text", text: `${name} answers` }] }));
    return { content: [{ type: "text", text: `added ${name}` }] };
  });

await server.connect(new StdioServerTransport());
