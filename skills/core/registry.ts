/**
 * The skill registry: every skill is declared once with `defineSkill`, and every surface
 * (paid HTTP routes, OpenAPI, the marketplace catalogue, and later A2A, MCP and the report
 * agent) is a projection of it. Prices, enums, defaults and limits live only here.
 */
import { SibylError, type ErrorCode } from './errors.js';
import type { z } from 'zod';
import { checkedHandler } from './output-check.js';
import { notingSecrets } from './issued-secrets.js';
import { assertUsdPrice, usdToAtomic, type UsdPrice } from './money.js';
import type { SkillContext } from './context.js';
import type { SnapshotJob } from './snapshots.js';

export type Surface = 'http' | 'a2a' | 'mcp' | 'agent';

/**
 * A fixed price, or price variants: the first is the default, and a later one applies when
 * every field of its `when` equals the validated body's (the last match wins). Published as is.
 */
export interface PriceVariant<I> {
  readonly price: UsdPrice;
  readonly when: Partial<I>;
}
export type PriceSpec<I> = UsdPrice | { readonly variants: readonly [PriceVariant<I>, ...PriceVariant<I>[]] };

/** The variants of any price spec (a fixed price is one variant with no condition). */
export function priceVariants<I>(price: PriceSpec<I>): readonly PriceVariant<I>[] {
  return typeof price === 'string' ? [{ price, when: {} }] : price.variants;
}

export interface SkillDefinition<S extends z.ZodObject, O extends z.ZodObject = z.ZodObject, Id extends string = string> {
  /** Stable id (A2A skill id style, e.g. `latest-pairs`); a literal type, so the catalogue derives the union of ids. */
  readonly id: Id;
  readonly title: string;
  readonly description: string;
  readonly tags: readonly string[];
  /** Example requests in plain language (for the agent card and the report planner). */
  readonly examples: readonly string[];
  /** The request body. Strict: unknown fields are refused and named. */
  readonly input: S;
  /** The price of its paid HTTP operation (docs/skills.md), or of the skill where it has no operation. */
  readonly price: PriceSpec<z.output<S>>;
  /**
   * The price the marketplace catalogue and the A2A skill list give where it differs
   * from the operation's: A2A calls and typed capability bodies on the report path charge it.
   */
  readonly catalogPrice?: UsdPrice;
  /** Paid HTTP path, e.g. `/x402/data/latest-pairs`. */
  readonly httpPath?: string;
  /** Other paths that sell the same operation at the same price (spec spellings). */
  readonly httpAliases?: readonly string[];
  /**
   * A body field that names another skill (by id) to run directly on this skill's path, at that
   * skill's own price: the report path's typed capability bodies. Only `agent` skills qualify.
   */
  readonly capabilityField?: string;
  /** Tool name on tool-calling surfaces (agent, MCP). */
  readonly toolName?: string;
  readonly surfaces: readonly Surface[];
  /**
   * Its entry in the marketplace catalogue (docs/protocols.md), for the 24 services listed there: the
   * catalogue's id when it differs, the rate limit per minute (enforced per caller, 429) and the
   * response-time target (enforced, 504; nothing charged).
   */
  readonly catalog?: CatalogEntry;
  /**
   * Set on a capability the spec lists whose engine this deployment lacks: it is refused with
   * `domain_disabled` before any payment is asked for, and left out of advertised prices.
   */
  readonly disabledReason?: string;
  /** The code a disabled skill is refused with (default `domain_disabled`; a missing provider: `provider_unavailable`). */
  readonly disabledCode?: ErrorCode;
  /**
   * Parts of a deployment the skill cannot work without (a Bitcoin chain): where one is missing,
   * createRegistry declares the skill disabled, so every surface and document says so.
   */
  readonly needs?: readonly DeploymentPart[];
  /**
   * What the request alone decides (chain served, chain indexed, token known, provider configured),
   * run after validation and before any payment is asked for on every surface; it throws the
   * refusal (a SibylError). It only reads the index; the work stays in the handler.
   * Declared with the helpers of `admission.ts`.
   */
  readonly admit?: (input: z.output<S>, ctx: SkillContext) => Promise<void>;
  /**
   * The answer's schema: what the handler returns, published in OpenAPI, the A2A skill list and
   * as the MCP tool's `outputSchema`. Shared pieces live in `outputs.ts`.
   */
  readonly output: O;
  /**
   * For a skill whose rows are the product (a lookup that finds things): the answer field holding
   * them. An answer with none is nothing produced, never settled, like `available: false`
   * (skills/core/produced.ts). Unset: only `available: false` is nothing.
   */
  readonly productRows?: keyof z.input<O> & string;
  /** Typed by `output`, so tsc holds every answer to its published schema. */
  readonly handler: (input: z.output<S>, ctx: SkillContext) => Promise<z.input<O>>;
  /**
   * The answer's first line in plain language, from a result of this skill (the report agent's
   * writer adds the main rows and the source after it). Skills without one are described from
   * their result's shape alone.
   */
  readonly summarize?: (result: any) => string;
  /**
   * Set on a skill whose answers carry secrets (keys generated for the caller): the fields, by
   * name at any depth, that hold them. Such an answer is returned once and never kept: its
   * values there are stripped, by value, from whatever persists an answer (issued-secrets.ts).
   */
  readonly secretFields?: readonly string[];
  /** The background job whose stored snapshot this (free) skill reads; the runner builds it while the skill works. */
  readonly snapshot?: SnapshotJob;
}

export interface CatalogEntry {
  readonly id?: string;
  readonly rateLimitPerMinute: number;
  readonly timeTargetSeconds: number;
  /** Body fields under which a call counts as this service (tokenchart with `forecast: true` is chart-forecast). */
  readonly when?: Readonly<Record<string, unknown>>;
}

/** The catalogue service a validated call counts against, with its limits, if any. */
export function catalogLimits(skill: Pick<Skill, 'id' | 'catalog'>, input: Record<string, unknown>): (CatalogEntry & { id: string }) | undefined {
  const entry = skill.catalog;
  if (!entry || !Object.entries(entry.when ?? {}).every(([k, v]) => input[k] === v)) return undefined;
  return { ...entry, id: entry.id ?? skill.id };
}

/** Which price list a call is charged from: the HTTP operation's, or the catalogue's (A2A, typed bodies). */
export type PriceList = 'http' | 'catalog';

export interface Skill<S extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject, Id extends string = string> extends SkillDefinition<S, O, Id> {
  /** Atomic USDC price for a validated body, from the given list. */
  quote(input: z.output<S>, list?: PriceList): bigint;
  /** Smallest and largest price the skill can charge on its HTTP operation, atomic. */
  readonly priceRange: { readonly min: bigint; readonly max: bigint };
  /** The same over the catalogue list. */
  readonly catalogPriceRange: { readonly min: bigint; readonly max: bigint };
  /** Priced FREE_USD (the tool server's free tools): never behind a paywall, never in paid price bounds. */
  readonly free: boolean;
}

/** A part of a deployment that may be absent. */
export type DeploymentPart = 'bitcoin' | 'qrng' | 'prediction' | 'prediction-funding' | 'stocks' | 'perps' | 'records' | 'calls';

export function defineSkill<S extends z.ZodObject, O extends z.ZodObject = z.ZodObject, const Id extends string = string>(def: SkillDefinition<S, O, Id>): Skill<S, O, Id> {
  const variants = priceVariants(def.price);
  variants.forEach((v) => assertUsdPrice(v.price));
  if (def.catalogPrice) assertUsdPrice(def.catalogPrice);
  const atomic = variants.map((v) => usdToAtomic(v.price));
  const range = (amounts: bigint[]) => ({ min: amounts.reduce((a, b) => (b < a ? b : a)), max: amounts.reduce((a, b) => (b > a ? b : a)) });
  const free = atomic.every((a) => a === 0n) && !def.catalogPrice;
  // A paid route or catalogue entry for nothing would ask a 402 of $0.00.
  if (free && (def.httpPath || def.catalog)) throw new Error(`free skill ${def.id} cannot have a paid route or catalogue entry`);
  return {
    ...def,
    handler: notingSecrets(def.secretFields, checkedHandler(def.id, def.output, def.handler)),
    quote(input, list = 'http') {
      if (list === 'catalog' && def.catalogPrice) return usdToAtomic(def.catalogPrice);
      const matches = variants.filter((v) => Object.entries(v.when).every(([k, want]) => (input as Record<string, unknown>)[k] === want));
      return usdToAtomic(matches[matches.length - 1]!.price);
    },
    priceRange: range(atomic),
    catalogPriceRange: def.catalogPrice ? range([usdToAtomic(def.catalogPrice)]) : range(atomic),
    free,
  };
}

export class Registry {
  private readonly byIdMap = new Map<string, Skill>();
  private readonly byPathMap = new Map<string, Skill>();
  private readonly byToolMap = new Map<string, Skill>();

  /**
   * `planned`: what the spec declares and this deployment has no engine for yet. A planned entry
   * whose id or tool name a real skill takes is dropped: the real one replaces it, nobody deletes
   * it by hand.
   */
  constructor(skills: readonly Skill<any>[], planned: readonly Skill<any>[] = []) {
    const taken = new Set(skills.flatMap((s) => [s.id, s.toolName].filter(Boolean)));
    const stillPlanned = planned.filter((p) => !taken.has(p.id) && !(p.toolName && taken.has(p.toolName)));
    for (const skill of [...skills, ...stillPlanned]) {
      claim(this.byIdMap, skill.id, skill, 'id');
      for (const path of httpPaths(skill)) claim(this.byPathMap, path, skill, 'path');
      if (skill.toolName) claim(this.byToolMap, skill.toolName, skill, 'tool name');
    }
  }

  /** Every declared skill (on a surface: declared there), working or not; documents that list what is not here read it. */
  list(surface?: Surface): Skill[] {
    const all = [...this.byIdMap.values()];
    return surface ? all.filter((s) => s.surfaces.includes(surface)) : all;
  }

  /** The working skills a surface publishes (without a surface: every working skill). Every list, card and tool set reads this. */
  published(surface?: Surface): Skill[] {
    return this.list(surface).filter(isWorking);
  }

  /** Skills the spec declares that this deployment has turned off: listed as "not here", with why. */
  unavailable(surface?: Surface): Skill[] {
    return this.list(surface).filter((s) => !isWorking(s));
  }

  /**
   * The one resolution rule: the working skill a caller names on a surface. A skill declared there
   * but off on this deployment is refused with its own code (`domain_disabled`, `provider_unavailable`)
   * the same way on every surface, before any payment; a name nothing declares is `undefined`, and
   * each transport says "no such" in its own words. A null surface accepts a skill declared on any
   * (the paid MCP tools' kinds and the pages name skills by id across surfaces).
   */
  resolve(surface: Surface | null, ref: SkillRef): Skill | undefined {
    const skill = this.lookup(ref);
    if (!skill || (surface && !skill.surfaces.includes(surface))) return undefined;
    if (!isWorking(skill)) throw disabledRefusal(skill);
    return skill;
  }

  private lookup(ref: SkillRef): Skill | undefined {
    if ('id' in ref) return this.byIdMap.get(ref.id);
    if ('path' in ref) return this.byPathMap.get(ref.path);
    return this.byToolMap.get(ref.tool);
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

  /** Skills a body may name in `skill`'s capability field: the working, paid agent skills. */
  capabilitiesOf(skill: Skill): Skill[] {
    return skill.capabilityField ? this.published('agent').filter((s) => !s.free) : [];
  }

  /** Advertised bounds across every paid HTTP operation (capability bodies included), computed, never typed. */
  httpPriceBounds(): { min: bigint; max: bigint } | undefined {
    const ranges = this.list('http').filter((s) => s.httpPath && !s.free).flatMap((s) => [s.priceRange, ...this.capabilitiesOf(s).filter((c) => !c.free).map((c) => c.catalogPriceRange)]);
    if (!ranges.length) return undefined;
    return {
      min: ranges.map((r) => r.min).reduce((a, b) => (b < a ? b : a)),
      max: ranges.map((r) => r.max).reduce((a, b) => (b > a ? b : a)),
    };
  }
}

/** How a caller names a skill: by id (A2A, capability bodies), HTTP path, or tool name (MCP, the agent). */
export type SkillRef = { readonly id: string } | { readonly path: string } | { readonly tool: string };

/** Whether a skill works on this deployment: the only place the rule is written. */
export function isWorking(skill: Pick<Skill, 'disabledReason'>): boolean {
  return !skill.disabledReason;
}

/** Every HTTP path that sells the skill: its path, then its aliases. */
export function httpPaths(skill: Pick<Skill, 'httpPath' | 'httpAliases'>): string[] {
  return skill.httpPath ? [skill.httpPath, ...(skill.httpAliases ?? [])] : [];
}

function claim(map: Map<string, Skill>, key: string, skill: Skill, what: string): void {
  if (map.has(key)) throw new Error(`duplicate skill ${what} "${key}" (${map.get(key)!.id} and ${skill.id})`);
  map.set(key, skill);
}

/** How a disabled skill is refused, wherever it is asked for (before any payment). */
export function disabledRefusal(skill: Pick<Skill, 'disabledReason' | 'disabledCode'>): SibylError {
  return new SibylError(skill.disabledCode ?? 'domain_disabled', skill.disabledReason ?? 'not available on this deployment', { reason: skill.disabledCode ?? 'domain_disabled' });
}
