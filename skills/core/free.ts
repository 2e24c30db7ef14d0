/**
 * The tool server's free tools as registry skills (docs/skills.md, "MCP tools"): priced FREE_USD, on the `mcp` surface
 * under their published tool name, each with its exact input and the free-tool envelope (docs/protocols.md):
 * `available`, `reason`, `fetchedAt`, `stale`, `limit` (the row cap applied to every list, or null
 * for a tool that takes none) and `truncated` when a list was cut. Results are read from snapshots
 * background jobs build; nothing is computed on the request path.
 */
import { z } from 'zod';
import type { SkillContext } from './context.js';
import { FREE_USD } from './money.js';
import { defineSkill, type DeploymentPart } from './registry.js';
import { readSnapshot, type SnapshotJob } from './snapshots.js';

export type ToolResult = Record<string, unknown> & { available: boolean };

/** The free-tool envelope, on every free result; additional properties are allowed everywhere. */
export const FREE_RESULT_SHAPE = {
  available: z.boolean().describe('false: no data for this call (snapshot not warm, domain switched off); not an error.'),
  reason: z.string().optional().describe('Why, when available is false.'),
  fetchedAt: z.union([z.number(), z.string(), z.null()]).describe('When the snapshot was refreshed: epoch ms (ISO-8601 for the Bitcoin cycle feed).'),
  stale: z.boolean().describe('The snapshot is past its refresh interval.'),
  limit: z.number().int().nullable().describe('Row cap applied to every list; null when the tool takes none.'),
  truncated: z.looseObject({ limit: z.number().int(), originalLengths: z.record(z.string(), z.number().int()) }).optional().describe('Present when a list was cut to limit.'),
};

/** A free tool's output schema: the envelope and its own fields (optional: a cold or disabled answer has only the envelope). */
export function freeOutput<const T extends z.ZodRawShape>(fields: T) {
  return z.looseObject({ ...FREE_RESULT_SHAPE, ...fields });
}

/** A paid answer's fields as a free tool's (optional: a cold or disabled answer has only the envelope). */
export function optionalShape<T extends Record<string, z.ZodType>>(shape: T): { [K in keyof T]: z.ZodOptional<T[K]> } {
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.optional()])) as { [K in keyof T]: z.ZodOptional<T[K]> };
}

/** Optional per-tool fields of the free outputs. */
export const list = () => z.array(z.looseObject({})).optional();
export const record = () => z.looseObject({}).optional();

interface FreeToolDefinition<S extends z.ZodObject, O extends z.ZodObject, Id extends string> {
  readonly id: Id;
  /** The spec's tool name. */
  readonly toolName: string;
  readonly title: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly examples?: readonly string[];
  readonly input: S;
  readonly output: O;
  readonly disabledReason?: string;
  /** Parts of the deployment it cannot work without (registry.ts). */
  readonly needs?: readonly DeploymentPart[];
  /** Also offered to the report agent as a tool (a question in plain language it answers best). */
  readonly agent?: boolean;
  /** The job that builds what `read` serves (see snapshots.ts). */
  readonly snapshot?: SnapshotJob;
  /** The answer in a sentence or two, as the report agent quotes it (registry.ts). */
  readonly summarize?: (result: any) => string;
  read(input: z.output<S>, ctx: SkillContext): Promise<ToolResult>;
}

export function defineFreeTool<S extends z.ZodObject, O extends z.ZodObject, const Id extends string>({ read, examples = [], agent = false, ...def }: FreeToolDefinition<S, O, Id>) {
  return defineSkill({
    ...def,
    examples,
    price: FREE_USD,
    surfaces: agent ? ['mcp', 'agent'] : ['mcp'],
    async handler(input, ctx) {
      const result = await read(input, ctx);
      // Every result carries `limit`: the call's (defaulted) limit, or null for a tool without one.
      // Results are snapshots stored as JSON, so their type is the schema's word (checked in tests by output-check).
      return ('limit' in result ? result : { ...result, limit: (input as { limit?: number }).limit ?? null }) as z.input<O>;
    },
  });
}

/** A domain this deployment has no engine for: no data, not an error (docs/protocols.md, "Tool results"). */
export function disabledResult(limit: number | null): ToolResult {
  return { available: false, reason: 'domain_disabled', fetchedAt: null, stale: false, limit };
}

/** The envelope over a stored snapshot, every list cut to `limit`. */
export async function fromSnapshot(ctx: Pick<SkillContext, 'store'>, job: SnapshotJob, limit: number | null, pick: (data: Record<string, unknown>) => Record<string, unknown> = (d) => d): Promise<ToolResult> {
  const snapshot = await readSnapshot(ctx, job);
  if (!snapshot) return { available: false, reason: 'snapshot_not_warm', fetchedAt: null, stale: true, limit };
  return envelope(pick(snapshot.data), snapshot.fetchedAt, snapshot.stale, limit);
}

/** The free-tool envelope; `limit: null` when the tool cuts nothing. */
export function envelope(body: Record<string, unknown>, fetchedAt: number | null, stale: boolean, limit: number | null): ToolResult {
  const originalLengths: Record<string, number> = {};
  const cut = limit === null ? body : (capLists(body, limit, '', originalLengths) as Record<string, unknown>);
  const truncated = Object.keys(originalLengths).length > 0;
  return {
    ...cut,
    available: (body.available as boolean | undefined) ?? true,
    fetchedAt,
    stale,
    limit,
    ...(truncated && { truncated: { limit, originalLengths } }),
  };
}

function capLists(value: unknown, limit: number, path: string, lengths: Record<string, number>): unknown {
  if (Array.isArray(value)) {
    if (value.length > limit) lengths[path] = value.length;
    return value.slice(0, limit).map((v, i) => capLists(v, limit, `${path}[${i}]`, lengths));
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, capLists(v, limit, path ? `${path}.${k}` : k, lengths)]));
  }
  return value;
}
