/**
 * The MCP tool server at `/api/mcp` (Streamable HTTP, protocol 2025-11-25 by
 * `@modelcontextprotocol/sdk`), stateless: one server and transport per request (one transport
 * reused across requests fails in SDK 1.32). Its tools are the projection cards/mcp-tools.ts
 * builds from the registry, registered with their input and output schemas: the SDK validates
 * arguments and results and dispatches. `GET /api/mcp/tools` publishes the same projection. A
 * foreign browser Origin is refused with 403 before anything else (./origin.ts).
 */
import type { Express, Request, Response } from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { SkillContext } from '../../skills/core/context.js';
import type { ToolResult } from '../../skills/core/free.js';
import type { Skill } from '../../skills/core/registry.js';
import { ListToolsRequestSchema, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import { buildMcpToolList, listedTools, MCP_PATH, mcpTools, perCallSkills, toolDirectory, type McpTool } from '../../cards/mcp-tools.js';
import { uiCards } from '../../cards/mcp-ui.js';
import { unauthorized, type Accounts } from '../auth.js';
import { toSibylError } from '../../skills/core/error-mapping.js';
import { servePaid, type PaidRouteDeps } from '../paid-routes.js';
import { skillOperation } from '../../payments/operation.js';
import { parseBody } from '../../skills/core/validation.js';
import { callPaidTool, ToolInputError, type BillingDeps } from './billing.js';
import { originGuard } from './origin.js';
import { toolCallOf, type ToolCall } from './tool-call.js';
import { ROUTES } from '../../cards/routes.js';

/** The tool server's own version (spec: "Tool server version: 3.0.0"), its `serverInfo.version`. */
export const MCP_SERVER_VERSION = '3.0.0';

/** A free tool's result: the record, also as its text block. */
function asContent(result: ToolResult) {
  return { content: [{ type: 'text' as const, text: JSON.stringify(result) }], structuredContent: result };
}

/** A paid tool's result (docs/protocols.md, "Tool results"): the text block is the written answer, `analysis`, itself. */
function asAnswer(result: ToolResult & { analysis: string }) {
  return { content: [{ type: 'text' as const, text: result.analysis }], structuredContent: result };
}

/** What a listed tool answers: its free skill's envelope, or its paid kind billed from credits. */
function toolHandler(tool: McpTool, ctx: SkillContext, deps: BillingDeps, account: string | null) {
  if ('free' in tool.answer) {
    const skill = tool.answer.free;
    return async (args: Record<string, unknown>) => asContent((await skill.handler(args, ctx)) as ToolResult);
  }
  const paid = tool.answer.paid;
  return async (args: Record<string, unknown>) => {
    // The HTTP layer already answered 401 to a paid call without an account.
    if (!account) return asAnswer({ available: false, reason: 'unauthorized', analysis: 'sign in for a bearer token first', skill: paid.name });
    try {
      return asAnswer(await callPaidTool(paid, args, account, { ...deps, context: ctx }));
    } catch (err) {
      if (err instanceof ToolInputError) return { isError: true, content: [{ type: 'text' as const, text: err.message }] };
      throw err;
    }
  };
}

export function createMcpServer(deps: BillingDeps, account: string | null): McpServer {
  // Skills see the published list through their context (list_service_capabilities), never the surface.
  const ctx: SkillContext = { ...deps.context, tools: toolDirectory(deps.registry) };
  const server = new McpServer({ name: 'sibyl', title: 'Sibyl', version: MCP_SERVER_VERSION }, { capabilities: { tools: {}, resources: {} }, jsonSchemaValidator: SCHEMA_VALIDATOR });
  for (const tool of mcpTools(deps.registry)) {
    server.registerTool(tool.name, {
      title: tool.title, description: tool.description, inputSchema: tool.input, outputSchema: tool.output, annotations: tool.annotations, ...(tool._meta && { _meta: tool._meta }),
    }, toolHandler(tool, ctx, deps, account));
  }
  for (const card of UI_CARDS) {
    server.registerResource(card.name, card.uri, { title: card.title, mimeType: card.mimeType }, async () => ({ contents: [{ uri: card.uri, mimeType: card.mimeType, text: card.html }] }));
  }
  // The SDK's own tools/list converts every tool's schemas again on each call (a fresh server per
  // request): the same list, converted the same way once per registry.
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools(deps.registry) as ListToolsResult['tools'] }));
  return server;
}

/** The cards' pages are the same for every request: built once. */
const UI_CARDS = uiCards();
/** One for every request's server: the SDK would otherwise build an Ajv instance per request (none of our tools elicits). */
const SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

export interface McpDeps extends BillingDeps, Pick<PaidRouteDeps, 'paywall' | 'publicUrl'> {
  readonly accounts: Accounts;
  /** This server's configured origin (PUBLIC_URL, else http://HOST:PORT; the sign-in origin), never a request header. */
  readonly configuredOrigin: () => string;
  /** Further browser origins allowed on the endpoint (MCP_ALLOWED_ORIGINS). */
  readonly allowedOrigins?: readonly string[];
}

/** A legacy per-skill tool call paid per call with x402: a 402 challenge, or the JSON-RPC result with the receipt. */
async function servePerCall(skill: Skill, call: ToolCall, req: Request, res: Response, deps: McpDeps): Promise<void> {
  const rpc = (result: unknown) => ({ jsonrpc: '2.0', id: call.id, result });
  let input: Record<string, unknown>;
  try {
    input = parseBody(skill.input, call.args);
  } catch (err) {
    return void res.json(rpc({ isError: true, content: [{ type: 'text', text: toSibylError(err).message }] }));
  }
  return servePaid({
    ...skillOperation(skill, input, deps.context, 'catalog'),
    resourcePath: `${MCP_PATH}#${skill.toolName}`,
    respond: (answer) => rpc({ content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: answer }),
    // An answer of nothing also carries the body every surface gives it (the unsold answer, `charged: false`).
    fail: (e) => rpc({ isError: true, content: [{ type: 'text', text: `${e.code}: ${e.message}` }], ...(e.code === 'no_answer' && { structuredContent: e.toBody() }) }),
  }, req, res, deps);
}

export function mountMcp(app: Express, deps: McpDeps): void {
  const paid = new Set(mcpTools(deps.registry).filter((t) => t.billing === 'credits').map((t) => t.name));
  const perCall = perCallSkills(deps.registry);
  // DNS-rebinding protection: every method on the endpoint, before the 401 gate and the 405s.
  app.all(MCP_PATH, originGuard(deps.configuredOrigin, deps.allowedOrigins));
  app.get(ROUTES.mcpTools, (_req, res) => void res.json(buildMcpToolList(deps.registry)));
  app.post(MCP_PATH, async (req: Request, res: Response) => {
    // The two answers HTTP must give before the SDK dispatches: 401 (paid tool, no account) and 402 (per-call tool, no payment).
    const call = toolCallOf(req.body);
    const account = await deps.accounts.account(req);
    if (call && paid.has(call.name) && !account) throw unauthorized(deps.publicUrl(req), MCP_PATH, req);
    const skill = call && perCall.get(call.name);
    if (call && skill) return servePerCall(skill, call, req, res, deps);
    const server = createMcpServer(deps, account);
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
