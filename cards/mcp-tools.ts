/**
 * The tool server's tool list (docs/skills.md, "MCP tools"), projected from the registry: the free tools are the
 * registry skills priced free on the `mcp` surface, the paid tools bundle registry skills by kind
 * (skills/catalog/paid-tools.ts) at their catalogue prices. The MCP server registers exactly these
 * tools, and `GET /api/mcp/tools` publishes the same list converted by the SDK's own converter,
 * so the document and `tools/list` cannot disagree.
 */
import { z } from 'zod';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ListedTool, ToolDirectory } from '../skills/core/context.js';
import type { Registry, Skill } from '../skills/core/registry.js';
import { PAID_TOOLS, toolPriceUsd, type PaidTool } from '../skills/catalog/paid-tools.js';
import { uiMeta } from './mcp-ui.js';

export const MCP_PATH = '/api/mcp';

/** Free tools read snapshots: nothing they do changes state, and the same call answers the same. */
const READ_ONLY = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false } as const satisfies ToolAnnotations;
/** A paid tool that creates things (keys) is neither read-only nor idempotent. */
const MUTATING = { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false } as const satisfies ToolAnnotations;

/** The paid-tool result (docs/protocols.md, "Tool results"); other properties vary by capability. */
export const PAID_RESULT = z.looseObject({
  available: z.boolean().describe('true when the analysis ran; false when no capability matched, credit ran out, billing was unavailable or nothing was produced.'),
  reason: z.string().optional(),
  analysis: z.string().describe('The written answer, identical to the result text block.'),
  skill: z.string().describe('The capability that answered.'),
});

export interface McpTool extends ListedTool {
  readonly input: z.ZodObject;
  readonly output: z.ZodObject;
  readonly annotations: ToolAnnotations;
  readonly _meta?: Record<string, unknown>;
  /** What answers a call: a free registry skill, or a paid tool's kinds. */
  readonly answer: { readonly free: Skill } | { readonly paid: PaidTool };
}

/** The free tools: registry skills priced free, on the `mcp` surface, under their spec tool names. */
export function freeToolSkills(registry: Registry): Skill[] {
  return registry.list('mcp').filter((s) => s.free && s.toolName);
}

/** The registry skills' own tool names, sold per call with X-PAYMENT (not listed among the tools). */
export function perCallSkills(registry: Registry): Map<string, Skill> {
  return new Map(registry.published('mcp').filter((s) => s.toolName && !s.free).map((s) => [s.toolName!, s]));
}

const projected = new WeakMap<Registry, readonly McpTool[]>();

/** Every listed tool, free then paid (built once per registry). */
export function mcpTools(registry: Registry): readonly McpTool[] {
  let tools = projected.get(registry);
  if (!tools) projected.set(registry, (tools = project(registry)));
  return tools;
}

function project(registry: Registry): McpTool[] {
  const free = freeToolSkills(registry).map((skill): McpTool => {
    if (!skill.output) throw new Error(`free tool ${skill.toolName} declares no output schema`);
    const meta = uiMeta(skill.toolName!);
    return { name: skill.toolName!, title: skill.title, description: skill.description, billing: 'free', input: skill.input, output: skill.output, annotations: READ_ONLY, ...(meta && { _meta: meta }), answer: { free: skill } };
  });
  const paid = PAID_TOOLS.map((tool): McpTool => {
    const priceUsd = toolPriceUsd(registry, tool);
    return {
      name: tool.name, title: tool.title, description: `${tool.description} Paid from credits: $${priceUsd} per call.`, billing: 'credits', priceUsd,
      input: tool.input, output: PAID_RESULT, annotations: tool.mutating ? MUTATING : READ_ONLY, answer: { paid: tool },
    };
  });
  return [...free, ...paid];
}

/** The list as skills see it (list_service_capabilities). */
export function toolDirectory(registry: Registry): ToolDirectory {
  return { list: () => mcpTools(registry).map(({ name, title, description, billing, priceUsd }) => ({ name, title, description, billing, ...(priceUsd && { priceUsd }) })) };
}

const toolLists = new WeakMap<Registry, ReturnType<typeof projectToolList>>();

/** `GET /api/mcp/tools`: the tools as `tools/list` gives them, with how each is billed (built once per registry). */
export function buildMcpToolList(registry: Registry) {
  let list = toolLists.get(registry);
  if (!list) toolLists.set(registry, (list = projectToolList(registry)));
  return list;
}

type ToolsListEntry = Omit<ReturnType<typeof projectToolList>['tools'][number], 'billing' | 'priceUsd'> & { execution: { taskSupport: 'forbidden' } };
const listed = new WeakMap<Registry, readonly ToolsListEntry[]>();

/**
 * What `tools/list` answers, built once per registry: the same tools without how each is billed,
 * as the MCP SDK lists a tool registered without task support.
 */
export function listedTools(registry: Registry): readonly ToolsListEntry[] {
  let tools = listed.get(registry);
  if (!tools) listed.set(registry, (tools = buildMcpToolList(registry).tools.map(({ billing: _b, priceUsd: _p, ...tool }) => ({ ...tool, execution: { taskSupport: 'forbidden' as const } }))));
  return tools;
}

function projectToolList(registry: Registry) {
  const tools = mcpTools(registry).map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: toJsonSchemaCompat(t.input, { strictUnions: true, pipeStrategy: 'input' }),
    outputSchema: toJsonSchemaCompat(t.output, { strictUnions: true, pipeStrategy: 'output' }),
    annotations: t.annotations,
    billing: t.billing,
    ...(t.priceUsd && { priceUsd: t.priceUsd }),
    ...(t._meta && { _meta: t._meta }),
  }));
  return { count: tools.length, tools };
}
