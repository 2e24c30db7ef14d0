/**
 * The MCP tool server at `/api/mcp` (Streamable HTTP, protocol 2025-11-25 by
 * `@modelcontextprotocol/sdk`), stateless: one server and transport per request (one transport
 * reused across requests fails in SDK 1.32). `GET /api/mcp/tools` lists the tools as JSON. A
 * foreign browser Origin is refused with 403 before anything else (./origin.ts).
 */
import type { Express, Request, Response } from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { SkillContext } from '../../skills/context.js';
import type { Registry, Skill } from '../../skills/registry.js';
import { unauthorized, type Accounts } from '../auth.js';
import { toSibylError } from '../../skills/error-mapping.js';
import { servePaid, type PaidRouteDeps } from '../paid-routes.js';
import { skillOperation } from '../../payments/operation.js';
import { parseBody } from '../../skills/validation.js';
import { callPaidTool, ToolInputError, type BillingDeps } from './billing.js';
import { CAPABILITIES_TOOL, FREE_TOOLS, envelope, type ToolResult } from './free-tools.js';
import { PAID_TOOLS, toolPriceUsd } from './paid-tools.js';
import { originGuard } from './origin.js';
import { uiCards, uiMeta } from './ui-cards.js';

export const MCP_PATH = '/api/mcp';
/** The tool server's own version (spec: "Tool server version: 3.0.0"), its `serverInfo.version`. */
export const MCP_SERVER_VERSION = '3.0.0';
/** Free tools read snapshots: nothing they do changes state, and the same call answers the same. */
const READ_ONLY = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false } as const;

/** A paid tool that creates things (keys) is neither read-only nor idempotent. */
const MUTATING = { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false } as const;

const listed = new WeakMap<Registry, ReturnType<typeof buildToolList>>();

/** Every tool as listed by `GET /api/mcp/tools` and `list_service_capabilities` (built once per registry). */
export function toolList(registry: Registry) {
  let list = listed.get(registry);
  if (!list) listed.set(registry, (list = buildToolList(registry)));
  return list;
}

function buildToolList(registry: Registry) {
  return [
    ...FREE_TOOLS.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: z.toJSONSchema(t.input, { io: 'input' }), annotations: READ_ONLY, billing: 'free' as const, ...(uiMeta(t.name) && { _meta: uiMeta(t.name) }) })),
    { name: CAPABILITIES_TOOL.name, title: CAPABILITIES_TOOL.title, description: CAPABILITIES_TOOL.description, inputSchema: z.toJSONSchema(z.strictObject({}), { io: 'input' }), annotations: READ_ONLY, billing: 'free' as const },
    ...PAID_TOOLS.map((t) => ({ name: t.name, title: t.title, description: `${t.description} Paid from credits: $${toolPriceUsd(registry, t)} per call.`, inputSchema: z.toJSONSchema(t.input, { io: 'input' }), annotations: t.mutating ? MUTATING : READ_ONLY, billing: 'credits' as const, priceUsd: toolPriceUsd(registry, t) })),
  ];
}

function capabilities(registry: Registry): ToolResult {
  const tools = toolList(registry);
  return envelope({
    free: tools.filter((t) => t.billing === 'free').map(({ name, title, description }) => ({ name, title, description })),
    paid: tools.filter((t) => t.billing === 'credits').map(({ name, title, description, priceUsd }) => ({ name, title, priceUsd, description })),
    billing: {
      model: 'prepaid credits in USDC, debited per call at the tool\'s price (a range: the kind decides), refunded when nothing is produced',
      signIn: 'EIP-4361: GET /api/auth/nonce, sign, POST /api/auth/siwe for a bearer token (1 h)',
      topUp: 'POST /api/credits/topup { amountUsd } with the bearer token, paid with x402 (USDC on Base)',
      perCall: 'the registry skills\' own tool names (e.g. whale_intel) are paid per call with X-PAYMENT instead',
    },
  }, Date.now(), false, null);
}

/** A free tool's result: the record, also as its text block. */
function asContent(result: ToolResult) {
  return { content: [{ type: 'text' as const, text: JSON.stringify(result) }], structuredContent: result };
}

/** A paid tool's result (spec 2.4): the text block is the written answer, `analysis`, itself. */
function asAnswer(result: ToolResult & { analysis: string }) {
  return { content: [{ type: 'text' as const, text: result.analysis }], structuredContent: result };
}

export function createMcpServer(deps: BillingDeps, account: string | null): McpServer {
  const ctx = deps.context;
  const server = new McpServer({ name: 'sibyl', title: 'Sibyl', version: MCP_SERVER_VERSION }, { capabilities: { tools: {}, resources: {} } });
  for (const tool of FREE_TOOLS) {
    const meta = uiMeta(tool.name);
    server.registerTool(tool.name, { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: READ_ONLY, ...(meta && { _meta: meta }) }, async (args: unknown) => asContent(await tool.read(ctx, args as never)));
  }
  for (const card of UI_CARDS) {
    server.registerResource(card.name, card.uri, { title: card.title, mimeType: card.mimeType }, async () => ({ contents: [{ uri: card.uri, mimeType: card.mimeType, text: card.html }] }));
  }
  server.registerTool(CAPABILITIES_TOOL.name, { title: CAPABILITIES_TOOL.title, description: CAPABILITIES_TOOL.description, inputSchema: z.strictObject({}), annotations: READ_ONLY }, async () => asContent(capabilities(deps.registry)));
  const list = toolList(deps.registry);
  for (const tool of PAID_TOOLS) {
    const entry = list.find((t) => t.name === tool.name)!;
    server.registerTool(tool.name, { title: tool.title, description: entry.description, inputSchema: tool.input, annotations: entry.annotations }, async (args: unknown) => {
      // The HTTP layer already answered 401 to a paid call without an account.
      if (!account) return asAnswer({ available: false, reason: 'unauthorized', analysis: 'sign in for a bearer token first', skill: tool.name });
      try {
        return asAnswer(await callPaidTool(tool, args as Record<string, unknown>, account, deps));
      } catch (err) {
        if (err instanceof ToolInputError) return { isError: true, content: [{ type: 'text' as const, text: err.message }] };
        throw err;
      }
    });
  }
  return server;
}

/** The cards' pages are the same for every request: built once. */
const UI_CARDS = uiCards();

export interface McpDeps extends BillingDeps, Pick<PaidRouteDeps, 'paywall' | 'publicUrl'> {
  readonly accounts: Accounts;
  /** This server's configured origin (PUBLIC_URL, else http://HOST:PORT; the sign-in origin), never a request header. */
  readonly configuredOrigin: () => string;
  /** Further browser origins allowed on the endpoint (MCP_ALLOWED_ORIGINS). */
  readonly allowedOrigins?: readonly string[];
}

/** The single JSON-RPC message of a request (Streamable HTTP carries no batches since 2025-06-18). */
function toolCall(body: unknown): { id: unknown; name: string; args: Record<string, unknown> } | null {
  const m = body as { method?: string; id?: unknown; params?: { name?: unknown; arguments?: unknown } } | null;
  if (!m || Array.isArray(m) || m.method !== 'tools/call' || typeof m.params?.name !== 'string') return null;
  return { id: m.id, name: m.params.name, args: (m.params.arguments as Record<string, unknown> | undefined) ?? {} };
}

/** The registry skills' own tool names, sold per call with X-PAYMENT (not listed among the 42). */
function legacyTools(registry: Registry): Map<string, Skill> {
  return new Map(registry.list('mcp').filter((s) => s.toolName && !s.disabledReason).map((s) => [s.toolName!, s]));
}

/** A legacy per-skill tool call paid per call with x402: a 402 challenge, or the JSON-RPC result with the receipt. */
async function servePerCall(skill: Skill, call: NonNullable<ReturnType<typeof toolCall>>, req: Request, res: Response, deps: McpDeps): Promise<void> {
  const rpc = (result: unknown) => ({ jsonrpc: '2.0', id: call.id, result });
  const refused = (text: string) => void res.json(rpc({ isError: true, content: [{ type: 'text', text }] }));
  let input: Record<string, unknown>;
  if (!call.args || typeof call.args !== 'object' || Array.isArray(call.args)) return refused('arguments: must be an object');
  try {
    input = parseBody(skill.input, call.args);
  } catch (err) {
    return refused(toSibylError(err).message);
  }
  return servePaid({
    ...skillOperation(skill, input, deps.context, 'catalog'),
    resourcePath: `${MCP_PATH}#${skill.toolName}`,
    respond: (answer) => rpc({ content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: answer }),
    fail: (e) => rpc({ isError: true, content: [{ type: 'text', text: `${e.code}: ${e.message}` }] }),
  }, req, res, deps);
}

export function mountMcp(app: Express, deps: McpDeps): void {
  const paid = new Set(PAID_TOOLS.map((t) => t.name));
  const legacy = legacyTools(deps.registry);
  // DNS-rebinding protection: every method on the endpoint, before the 401 gate and the 405s.
  app.all(MCP_PATH, originGuard(deps.configuredOrigin, deps.allowedOrigins));
  app.get(`${MCP_PATH}/tools`, (_req, res) => {
    const tools = toolList(deps.registry);
    res.json({ count: tools.length, tools });
  });
  app.post(MCP_PATH, async (req: Request, res: Response) => {
    const call = toolCall(req.body);
    const account = await deps.accounts.account(req);
    if (call && paid.has(call.name) && !account) throw unauthorized(deps.publicUrl(req), MCP_PATH);
    const perCall = call && legacy.get(call.name);
    if (call && perCall) return servePerCall(perCall, call, req, res, deps);
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
