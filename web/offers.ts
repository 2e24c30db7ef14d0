/**
 * What the pages sell, projected from the registry (never retyped): every working skill with each
 * way to buy it and the price that way charges — its paid HTTP path (with price variants), the
 * report path's capability body, the A2A skill endpoint and JSON-RPC, the per-call MCP tool, the
 * paid MCP tools billed from credits, the free MCP tools, and ways the catalogue's owners describe
 * (the forecast inference API). The try-it panel's target is chosen here too.
 */
import { A2A_SKILLS_PATH, a2aPriceUsd, a2aSkills } from '../cards/a2a-skills.js';
import { A2A_JSONRPC_PATH } from '../cards/agent-card.js';
import { MCP_PATH, freeToolSkills, perCallSkills } from '../cards/mcp-tools.js';
import { priceOptions } from '../cards/openapi.js';
import { creditTools, type OwnWays, type PaymentRail } from '../cards/catalog.js';
import { atomicToUsdString, usdToAtomic } from '../skills/core/money.js';
import { httpPaths, priceVariants, type Registry, type Skill } from '../skills/core/registry.js';

export type WayKind = 'http' | 'report' | 'a2a' | 'a2a-jsonrpc' | 'mcp-per-call' | 'mcp-credits' | 'mcp-free' | 'own';

export interface Way {
  readonly kind: WayKind;
  /** How it is paid: x402 per call, prepaid credits, a service-token quota, or free. */
  readonly payment: 'x402' | 'credits' | 'service-token-quota' | 'free';
  /** The HTTP path, or the MCP endpoint. */
  readonly path: string;
  /** The MCP tool (and its kind argument) where one sells it. */
  readonly tool?: string;
  readonly toolArguments?: Readonly<Record<string, unknown>>;
  /** "0.25", or a range "0.25-0.65"; "0.00" when free. */
  readonly priceUsd: string;
  /** Body-dependent prices: each price and the body fields that select it (the first has none). */
  readonly variants?: readonly { readonly priceUsd: string; readonly when: Readonly<Record<string, unknown>> }[];
  /** Fixed body fields this way adds (the report path's capability field). */
  readonly body?: Readonly<Record<string, unknown>>;
}

/** Where the try-it panel sends a skill's body, and how it wraps it. */
export interface TryTarget {
  readonly path: string;
  /** `params`: the A2A skill endpoint's envelope `{ "params": body }`. */
  readonly envelope: 'none' | 'params';
  /** The most this call can be charged, in USD ("1.15"): the client's spend cap. */
  readonly maxPriceUsd: string;
}

export interface Offer {
  readonly skill: Skill;
  readonly ways: readonly Way[];
  readonly tryIt?: TryTarget;
}

const usd = (atomic: bigint) => atomicToUsdString(atomic);

/** The skills this deployment serves (a disabled one is refused everywhere, so it is not offered). */
export function workingSkills(registry: Registry): Skill[] {
  return registry.published();
}

export function buildOffers(registry: Registry, rail: PaymentRail, ownWays: Readonly<Record<string, OwnWays>> = {}): Offer[] {
  const a2a = new Set(a2aSkills(registry).map((s) => s.id));
  const perCall = new Set([...perCallSkills(registry).values()].map((s) => s.id));
  const free = new Set(freeToolSkills(registry).map((s) => s.id));
  const report = registry.published('http').find((s) => s.capabilityField);
  const capabilities = new Set(report ? registry.capabilitiesOf(report).map((s) => s.id) : []);

  return workingSkills(registry).map((skill): Offer => {
    const ways: Way[] = [];
    const variants = priceVariants(skill.price).map((v) => ({ priceUsd: usd(usdToAtomic(v.price)), when: v.when as Record<string, unknown> }));
    for (const path of httpPaths(skill)) {
      ways.push({ kind: 'http', payment: 'x402', path, priceUsd: priceOptions(skill).join('-'), ...(variants.length > 1 && { variants }) });
    }
    const catalogPrice = priceOptions(skill, 'catalog')[0]!;
    if (report && capabilities.has(skill.id)) {
      ways.push({ kind: 'report', payment: 'x402', path: report.httpPath!, priceUsd: catalogPrice, body: { [report.capabilityField!]: skill.id } });
    }
    if (a2a.has(skill.id)) {
      ways.push({ kind: 'a2a', payment: 'x402', path: `${A2A_SKILLS_PATH}/${skill.id}`, priceUsd: a2aPriceUsd(skill) });
      ways.push({ kind: 'a2a-jsonrpc', payment: 'x402', path: A2A_JSONRPC_PATH, priceUsd: a2aPriceUsd(skill) });
    }
    if (perCall.has(skill.id)) ways.push({ kind: 'mcp-per-call', payment: 'x402', path: MCP_PATH, tool: skill.toolName!, priceUsd: catalogPrice });
    if (free.has(skill.id)) ways.push({ kind: 'mcp-free', payment: 'free', path: MCP_PATH, tool: skill.toolName!, priceUsd: usd(0n) });
    for (const t of creditTools(registry, skill)) ways.push({ kind: 'mcp-credits', payment: 'credits', path: MCP_PATH, tool: t.tool, toolArguments: t.arguments, priceUsd: t.priceUsd });
    for (const own of ownWays[skill.id]?.('', rail) ?? []) {
      ways.push({ kind: 'own', payment: own.method, path: String(own.path), priceUsd: own.priceUsd });
    }
    return { skill, ways, ...tryTarget(skill, ways) };
  });
}

/** The panel pays over plain HTTP: the skill's own path, else its A2A endpoint, else a path its owner sells it on. */
function tryTarget(skill: Skill, ways: readonly Way[]): { tryIt?: TryTarget } {
  const max = (w: Way) => w.priceUsd.split('-').pop()!;
  const http = ways.find((w) => w.kind === 'http') ?? ways.find((w) => w.kind === 'a2a') ?? ways.find((w) => w.kind === 'own' && w.payment === 'x402');
  if (!http || skill.free) return {};
  return { tryIt: { path: http.path, envelope: http.kind === 'a2a' ? 'params' : 'none', maxPriceUsd: max(http) } };
}

/** Every distinct price a way lists, as "$0.25", "$0.25 / $0.65 with forecast: true". */
export function priceLabel(way: Way): string {
  if (way.payment === 'free') return 'free';
  if (!way.variants) return `$${way.priceUsd}`;
  return way.variants.map((v) => {
    const when = Object.entries(v.when).map(([k, w]) => `${k}: ${JSON.stringify(w)}`).join(', ');
    return when ? `$${v.priceUsd} with ${when}` : `$${v.priceUsd}`;
  }).join(' / ');
}
