/**
 * The MCP tool server at `/api/mcp` (Streamable HTTP, protocol 2025-11-25 by
 * `@modelcontextprotocol/sdk`), stateless: one server and transport per request (one transport
 * reused across requests fails in SDK 1.32). `GET /api/mcp/tools` lists the tools as JSON.
 */
import type { Express, Request, Response } from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { SkillContext } from '../skills/context.js';
import { CAPABILITIES_TOOL, FREE_TOOLS, envelope, type ToolResult } from './free-tools.js';

export const MCP_PATH = '/api/mcp';
/** Free tools read snapshots: nothing they do changes state, and the same call answers the same. */
const READ_ONLY = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false } as const;

/** Every tool as listed by `GET /api/mcp/tools` and `list_service_capabilities`. */
export function toolList() {
  return [
    ...FREE_TOOLS.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: z.toJSONSchema(t.input, { io: 'input' }), annotations: READ_ONLY, billing: 'free' })),
    { name: CAPABILITIES_TOOL.name, title: CAPABILITIES_TOOL.title, description: CAPABILITIES_TOOL.description, inputSchema: z.toJSONSchema(z.strictObject({}), { io: 'input' }), annotations: READ_ONLY, billing: 'free' },
  ];
}

function capabilities(): ToolResult {
  return envelope({
    free: toolList().map(({ name, title, description }) => ({ name, title, description })),
    paid: [],
    billing: { model: 'prepaid credits', available: false, reason: 'paid tools are not served on this deployment yet; the same skills are sold per call over x402 (see /api/marketplace/catalog)' },
  }, Date.now(), false, undefined);
}

function asContent(result: ToolResult) {
  return { content: [{ type: 'text' as const, text: JSON.stringify(result) }], structuredContent: result };
}

export function createMcpServer(ctx: SkillContext, version: string): McpServer {
  const server = new McpServer({ name: 'sibyl', title: 'Sibyl', version }, { capabilities: { tools: {} } });
  for (const tool of FREE_TOOLS) {
    server.registerTool(tool.name, { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: READ_ONLY }, async (args: unknown) => asContent(await tool.read(ctx, args as never)));
  }
  server.registerTool(CAPABILITIES_TOOL.name, { title: CAPABILITIES_TOOL.title, description: CAPABILITIES_TOOL.description, inputSchema: z.strictObject({}), annotations: READ_ONLY }, async () => asContent(capabilities()));
  return server;
}

export function mountMcp(app: Express, ctx: SkillContext, version: string): void {
  app.get(`${MCP_PATH}/tools`, (_req, res) => {
    const tools = toolList();
    res.json({ count: tools.length, tools });
  });
  app.post(MCP_PATH, async (req: Request, res: Response) => {
    const server = createMcpServer(ctx, version);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  // Stateless: no server-initiated stream and no session to end.
  for (const method of ['get', 'delete'] as const) {
    app[method](MCP_PATH, (_req, res) => {
      res.status(405).set('Allow', 'POST').json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; POST JSON-RPC requests' }, id: null });
    });
  }
}
