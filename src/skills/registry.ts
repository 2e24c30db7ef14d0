/**
 * The skill registry: every skill is declared once with `defineSkill`, and every surface
 * (paid HTTP routes, OpenAPI, the marketplace catalogue, and later A2A, MCP and the report
 * agent) is a projection of it. Prices, enums, defaults and limits live only here.
 */
import type { z } from 'zod';
import { assertUsdPrice, usdToAtomic, type UsdPrice } from '../payments/money.js';
import type { SkillContext } from './context.js';

export type Surface = 'http' | 'a2a' | 'mcp' | 'agent';

/** A fixed price, or a price chosen from a closed list by the validated body. */
export type PriceSpec<I> = UsdPrice | { readonly options: readonly UsdPrice[]; readonly select: (input: I) => UsdPrice };

export interface SkillDefinition<S extends z.ZodObject> {
  /** Stable id (A2A skill id style, e.g. `latest-pairs`). */
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly tags: readonly string[];
  /** Example requests in plain language (for the agent card and the report planner). */
  readonly examples: readonly string[];
  /** The request body. Strict: unknown fields are refused and named. */
  readonly input: S;
  readonly price: PriceSpec<z.output<S>>;
  /** Paid HTTP path, e.g. `/x402/data/latest-pairs`. */
  readonly httpPath?: string;
  /** Other paths that sell the same operation at the same price (spec spellings). */
  readonly httpAliases?: readonly string[];
  /** Tool name on tool-calling surfaces (agent, MCP). */
  readonly toolName?: string;
  readonly surfaces: readonly Surface[];
  /** Catalogue rate limit per minute and response-time target, where the spec gives them. */
  readonly rateLimitPerMinute?: number;
  readonly timeTargetSeconds?: number;
  readonly handler: (input: z.output<S>, ctx: SkillContext) => Promise<Record<string, unknown>>;
}

export interface Skill<S extends z.ZodObject = z.ZodObject> extends SkillDefinition<S> {
  /** Atomic USDC price for a validated body. */
  quote(input: z.output<S>): bigint;
  /** Smallest and largest price the skill can charge, atomic. */
  readonly priceRange: { readonly min: bigint; readonly max: bigint };
}

export function defineSkill<S extends z.ZodObject>(def: SkillDefinition<S>): Skill<S> {
  const options = typeof def.price === 'string' ? [def.price] : def.price.options;
  options.forEach((p) => assertUsdPrice(p));
  const atomic = options.map(usdToAtomic);
  const select = typeof def.price === 'string' ? () => def.price as UsdPrice : def.price.select;
  return {
    ...def,
    quote(input) {
      const chosen = select(input);
      if (!options.includes(chosen)) throw new Error(`skill ${def.id} selected price ${chosen} outside its options`);
      return usdToAtomic(chosen);
    },
    priceRange: {
      min: atomic.reduce((a, b) => (b < a ? b : a)),
      max: atomic.reduce((a, b) => (b > a ? b : a)),
    },
  };
}

export class Registry {
  private readonly byIdMap = new Map<string, Skill>();
  private readonly byPathMap = new Map<string, Skill>();
  private readonly byToolMap = new Map<string, Skill>();

  constructor(skills: readonly Skill<any>[]) {
    for (const skill of skills) {
      claim(this.byIdMap, skill.id, skill, 'id');
      for (const path of httpPaths(skill)) claim(this.byPathMap, path, skill, 'path');
      if (skill.toolName) claim(this.byToolMap, skill.toolName, skill, 'tool name');
    }
  }

  list(surface?: Surface): Skill[] {
    const all = [...this.byIdMap.values()];
    return surface ? all.filter((s) => s.surfaces.includes(surface)) : all;
  }

  byId(id: string): Skill | undefined {
    return this.byIdMap.get(id);
  }

  byPath(path: string): Skill | undefined {
    return this.byPathMap.get(path);
  }

  byTool(name: string): Skill | undefined {
    return this.byToolMap.get(name);
  }

  /** Advertised bounds across every paid HTTP operation, computed, never typed. */
  httpPriceBounds(): { min: bigint; max: bigint } | undefined {
    const paid = this.list('http').filter((s) => s.httpPath);
    if (!paid.length) return undefined;
    return {
      min: paid.map((s) => s.priceRange.min).reduce((a, b) => (b < a ? b : a)),
      max: paid.map((s) => s.priceRange.max).reduce((a, b) => (b > a ? b : a)),
    };
  }
}

/** Every HTTP path that sells the skill: its path, then its aliases. */
export function httpPaths(skill: Pick<Skill, 'httpPath' | 'httpAliases'>): string[] {
  return skill.httpPath ? [skill.httpPath, ...(skill.httpAliases ?? [])] : [];
}

function claim(map: Map<string, Skill>, key: string, skill: Skill, what: string): void {
  if (map.has(key)) throw new Error(`duplicate skill ${what} "${key}" (${map.get(key)!.id} and ${skill.id})`);
  map.set(key, skill);
}
