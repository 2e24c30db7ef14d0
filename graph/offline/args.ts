/**
 * Fills a tool's arguments from the prompt's facts, reading only the tool's JSON Schema: what a
 * field accepts (a chain enum, a period enum, an address pattern, an integer range) decides
 * which fact goes into it. Follow-up questions inherit what they leave out (the token, the
 * wallet, the chain) from the room's previous call.
 */
import { CHAINS, CHAIN_NAMES } from '../../chain/chains.js';
import { canonicalAsset } from '../../skills/data/resolve.js';
import { stem, termParts, type AddressKind, type AddressMention, type PromptFacts } from './facts.js';
import { glossaryChoice, hasGlossary, promptLemmas } from './choices.js';
import type { AgentTool, JsonSchemaProperty } from '../tools.js';

export interface FieldRole {
  readonly kind: 'chain' | 'chains' | 'period' | 'candle' | 'address' | 'addresses' | 'chainAddresses' | 'txHash' | 'symbol' | 'amount' | 'count' | 'days' | 'window' | 'flag' | 'choice' | 'text' | 'other';
  readonly required: boolean;
  /** Allowed values of an enum field. */
  readonly values?: readonly string[];
  /** An address field that also takes a ticker symbol. */
  readonly acceptsSymbol?: boolean;
  /** The kinds of address an address (or address-list) field takes. */
  readonly accepts?: readonly AddressKind[];
  readonly minimum?: number;
  readonly maximum?: number;
  /** A number field's unit as its description writes it after a number or a range ("1-1024 bytes", "sat/vB"). */
  readonly units?: readonly string[];
  /** A text field's longest value. */
  readonly maxLength?: number;
  /**
   * A field its description says is for one value of a choice field ("required for early-buyers",
   * "for portfolio"): filled only when that value is chosen, and then required if it says so.
   */
  readonly when?: { readonly field: string; readonly value: string; readonly required: boolean };
}

const DURATION = /^(\d+)(m|h|d|w|M)$/;
const DURATION_SECONDS: Record<string, number> = { m: 60, h: 3_600, d: 86_400, w: 604_800, M: 2_592_000 };

export function durationSeconds(value: string): number | null {
  const m = DURATION.exec(value);
  return m ? Number(m[1]) * DURATION_SECONDS[m[2]!]! : null;
}

export function classifyFields(tool: AgentTool): Map<string, FieldRole> {
  const required = new Set(tool.parameters.required ?? []);
  const roles = new Map<string, FieldRole>();
  for (const [name, p] of Object.entries(tool.parameters.properties)) roles.set(name, { ...classify(name, p), required: required.has(name) });
  // "…; required for early-buyers": a value of another field of the tool, named in this one's description.
  for (const [name, role] of roles) {
    const description = tool.parameters.properties[name]?.description ?? '';
    for (const m of description.matchAll(/\b(required )?for ([a-z0-9]+(?:-[a-z0-9]+)*)\b/gi)) {
      const field = [...roles].find(([other, r]) => other !== name && r.kind === 'choice' && r.values!.includes(m[2]!))?.[0];
      if (field) {
        roles.set(name, { ...role, when: { field, value: m[2]!, required: !!m[1] } });
        break;
      }
    }
  }
  return roles;
}

/** A number field's units: its own name ("bytes") and a unit its description writes ("sat/vB", "random bytes"). */
function unitsOf(name: string, description = ''): string[] {
  const own = name.split(/(?=[A-Z])|[_-]/).map((w) => w.toLowerCase());
  const written = [...description.matchAll(/\b([a-z]+\/[a-z]+)\b/gi)].map((m) => m[1]!.toLowerCase());
  return [...own, ...written].filter((u) => u.length > 2);
}

/** Chains outside the EVM catalogue that a chain field may also list (the exposure scans read Bitcoin). */
export const OTHER_CHAINS: readonly string[] = ['bitcoin'];
const isChainList = (values: readonly string[]) =>
  values.some((v) => (CHAIN_NAMES as readonly string[]).includes(v)) && values.every((v) => (CHAIN_NAMES as readonly string[]).includes(v) || OTHER_CHAINS.includes(v));

/** What an address field's pattern lets through, tried on one written example of each kind. */
const ADDRESS_SAMPLES: Record<AddressKind | 'symbol', string> = {
  evm: `0x${'ab'.repeat(20)}`,
  bitcoin: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  symbol: 'USDC',
};
const ADDRESS_KINDS: readonly AddressKind[] = ['evm', 'bitcoin'];

function patternAccepts(pattern: string, sample: string): boolean {
  try {
    return new RegExp(pattern).test(sample);
  } catch {
    return false;
  }
}

/** A field named for an address ("address", "walletAddress", "owner"...) whose schema leaves the format to the skill. */
const ADDRESS_NAME = /address$|^address|^wallet$/i;
/** An array field named for a list of addresses ("addresses", "wallets", "watchlist"). */
const ADDRESS_LIST_NAME = /addresses$|^wallets$|^watch/i;
/** A free-text field that takes what the user wants in their own words ("the objective in plain words"). */
const PLAIN_WORDS = /\bplain (?:words|language)\b/i;

function classify(name: string, p: JsonSchemaProperty): Omit<FieldRole, 'required'> {
  const values = p.enum?.map(String);
  const range = { ...(p.minimum !== undefined && { minimum: p.minimum }), ...(p.maximum !== undefined && { maximum: p.maximum }) };
  if (values?.length && isChainList(values)) return { kind: 'chain', values };
  if (values?.length && values.every((v) => durationSeconds(v) !== null)) return { kind: /timeframe|interval|candle/i.test(name) ? 'candle' : 'period', values };
  if (values?.length) return { kind: 'choice', values };
  const itemValues = p.type === 'array' ? p.items?.enum?.map(String) : undefined;
  if (itemValues?.length && isChainList(itemValues)) return { kind: 'chains', values: itemValues };
  if (p.type === 'array' && p.items?.type === 'string' && !p.items.enum && ADDRESS_LIST_NAME.test(name)) {
    const pattern = p.items.pattern;
    return { kind: 'addresses', accepts: ADDRESS_KINDS.filter((k) => !pattern || patternAccepts(pattern, ADDRESS_SAMPLES[k])) };
  }
  if (p.pattern?.includes('{64}')) return { kind: 'txHash' };
  if (p.pattern?.includes('{40}')) {
    const accepts = ADDRESS_KINDS.filter((k) => patternAccepts(p.pattern!, ADDRESS_SAMPLES[k]));
    return { kind: 'address', acceptsSymbol: patternAccepts(p.pattern, ADDRESS_SAMPLES.symbol), accepts: accepts.length ? accepts : ['evm'] };
  }
  if (p.type === 'string' && !p.pattern && !values && ADDRESS_NAME.test(name)) return { kind: 'address', accepts: ADDRESS_KINDS };
  if (p.type === 'string' && !p.pattern && !values && PLAIN_WORDS.test(p.description ?? '')) {
    const maxLength = (p as JsonSchemaProperty & { maxLength?: number }).maxLength;
    return { kind: 'text', ...(maxLength !== undefined && { maxLength }) };
  }
  // An object keyed by chain whose values are addresses: where to send on each chain (a migration's destinations).
  const keys = Object.keys((p as JsonSchemaProperty & { properties?: Record<string, unknown> }).properties ?? {});
  if (p.type === 'object' && keys.length && isChainList(keys)) {
    return { kind: 'chainAddresses', values: keys, accepts: ADDRESS_KINDS.filter((k) => (k === 'bitcoin' ? keys.includes('bitcoin') : keys.some((c) => c !== 'bitcoin'))) };
  }
  // A token quantity written as a decimal string (plans: "deposit 1000 USDC").
  if (p.type === 'string' && /amount/i.test(name)) return { kind: 'amount' };
  if (p.type === 'string' && /token|symbol|asset|^coin$/i.test(name)) return { kind: 'symbol' };
  if (p.type === 'integer' && /^limit$|count|rows/i.test(name)) return { kind: 'count', ...range };
  if (p.type === 'integer' && /days/i.test(name)) return { kind: 'days', ...range };
  if ((p.type === 'integer' || p.type === 'number') && /window|period/i.test(`${name} ${p.description ?? ''}`)) return { kind: 'window', ...range };
  if (p.type === 'boolean') return { kind: 'flag' };
  if (p.type === 'integer' || p.type === 'number') return { kind: 'other', ...range, units: unitsOf(name, p.description) };
  return { kind: 'other', ...range };
}

export interface FilledArgs {
  readonly args: Record<string, unknown>;
  /** Required fields the prompt (and the room) did not supply. */
  readonly missing: readonly string[];
}

export function fillArgs(tool: AgentTool, facts: PromptFacts, previous: Readonly<Record<string, unknown>> = {}): FilledArgs {
  const roles = classifyFields(tool);
  const args: Record<string, unknown> = {};
  const addresses = [...facts.addresses];
  const takeAddress = (field: string, role: FieldRole): string | undefined => {
    const fits = (a: AddressMention) => takes(role, a);
    const cued = addresses.findIndex((a) => fits(a) && a.cue !== null && field.toLowerCase().includes(a.cue));
    const index = cued >= 0 ? cued : addresses.findIndex((a) => fits(a) && (a.cue === null || !fieldsWanting(roles, a.cue)));
    return index >= 0 ? addresses.splice(index, 1)[0]!.value : undefined;
  };
  const windows = [...(facts.pair ?? [])];
  // Words one by one, a compound's parts among them: "front-running" names a front-running flag.
  const words = facts.terms.flatMap((t) => termParts(t).flat());
  const quantityFor = (role: FieldRole) => facts.quantities.find((q) => role.units?.some((u) => q.units.some((w) => u === w || stem(u) === stem(w))))?.value;

  // Address fields first, cued ones before the rest, so "wallet 0x.. token 0x.." lands right; those
  // that take only an address before those a ticker also fills ("deposit 1000 USDC from 0x..").
  const ordered = [...roles.entries()].sort(([, a], [, b]) => Number(b.kind === 'address') - Number(a.kind === 'address') || Number(!!a.acceptsSymbol) - Number(!!b.acceptsSymbol) || Number(b.required) - Number(a.required));
  for (const [name, role] of ordered) {
    let value: unknown;
    switch (role.kind) {
      case 'chain':
        value = facts.chains.find((c) => role.values!.includes(c)) ?? facts.chains[0] ?? homeChain(facts.symbols, role.values!);
        break;
      case 'chains': {
        const named = facts.chains.filter((c) => role.values!.includes(c));
        value = named.length ? named : undefined;
        break;
      }
      case 'period':
        value = nearestDuration(role.values!, facts.windowSeconds ?? (roles.has('timeframe') ? null : facts.candleSeconds));
        break;
      case 'candle':
        value = nearestDuration(role.values!, facts.candleSeconds);
        break;
      case 'address':
        value = takeAddress(name, role) ?? (role.acceptsSymbol ? facts.symbols[0] : undefined);
        break;
      case 'addresses': {
        // Every address the prompt lists that the field takes (a watch list), in the order written.
        const listed = addresses.filter((a) => takes(role, a));
        for (const a of listed) addresses.splice(addresses.indexOf(a), 1);
        value = listed.length ? listed.map((a) => a.value) : undefined;
        break;
      }
      case 'symbol':
        value = facts.symbols[0] ?? takeAddress(name, { kind: 'address', required: false, accepts: ['evm'] });
        break;
      case 'txHash':
        value = facts.txHashes[0];
        break;
      case 'amount':
        value = facts.amounts[0]?.value;
        break;
      case 'count':
        value = facts.count ?? undefined;
        break;
      case 'days':
        value = facts.windowSeconds ? Math.ceil(facts.windowSeconds / 86_400) : undefined;
        break;
      case 'window':
        value = windows.shift();
        break;
      case 'flag':
        value = name.split(/(?=[A-Z])|[_-]/).some((w) => words.includes(stem(w))) ? true : undefined;
        break;
      case 'choice':
        // Values named for what they are, with words people use for each (choices.ts): those words alone choose.
        value = hasGlossary(role.values!) ? glossaryChoice(role.values!, promptLemmas(facts.text)) : bestChoice(role.values!, [...words, ...facts.numerals], tool.parameters.properties[name]?.description);
        break;
      case 'text':
        // The objective in plain words is the question itself.
        value = facts.text ? facts.text.slice(0, role.maxLength) : undefined;
        break;
      case 'chainAddresses':
        // Filled once the single-address fields took theirs (below): what is left is where to send.
        value = undefined;
        break;
      default:
        value = quantityFor(role);
    }
    if (value === undefined && ['address', 'addresses', 'symbol', 'txHash', 'chain', 'chains'].includes(role.kind) && previous[name] !== undefined) value = previous[name];
    if (value !== undefined) args[name] = clamp(value, role);
  }
  // Addresses left after the others took theirs ("move 0x.. to 0x.."), each under its chain: a Bitcoin
  // address under bitcoin, an EVM one under the chain the prompt names (none named: no key to put it under).
  for (const [name, role] of roles) {
    if (role.kind !== 'chainAddresses') continue;
    const keyOf = (a: AddressMention) => (a.kind === 'bitcoin' ? 'bitcoin' : facts.chains.find((c) => role.values!.includes(c)));
    const entries = addresses.map((a) => [keyOf(a), a.value] as const).filter(([key]) => key !== undefined && role.values!.includes(key));
    if (entries.length) args[name] = Object.fromEntries(entries);
  }
  // A field for one value of a choice is left out under any other (the skill's default counting as chosen), and asked for under it when required there.
  const conditional = [...roles].filter(([, role]) => role.when);
  for (const [name, role] of conditional) if ((args[role.when!.field] ?? tool.parameters.properties[role.when!.field]?.default) !== role.when!.value) delete args[name];
  const requiredNow = (name: string, role: FieldRole) => role.required || (!!role.when?.required && (args[role.when.field] ?? tool.parameters.properties[role.when.field]?.default) === role.when.value);
  const missing = [...roles.entries()].filter(([name, role]) => requiredNow(name, role) && args[name] === undefined).map(([name]) => name);
  return { args, missing };
}

/**
 * Where an asset lives when the prompt names no chain: the one chain it is native to (BNB → bsc,
 * POL → polygon). ETH is native to several, so it keeps the field's default.
 */
function homeChain(symbols: readonly string[], allowed: readonly string[]): string | undefined {
  for (const symbol of symbols) {
    const asset = canonicalAsset(symbol);
    const homes = CHAIN_NAMES.filter((c) => canonicalAsset((CHAINS[c] as { nativeSymbol?: string }).nativeSymbol ?? '') === asset);
    if (homes.length === 1 && allowed.includes(homes[0]!)) return homes[0];
  }
  return undefined;
}

function fieldsWanting(roles: ReadonlyMap<string, FieldRole>, cue: string): boolean {
  return [...roles.entries()].some(([name, r]) => r.kind === 'address' && name.toLowerCase().includes(cue));
}

/** Whether an address field (one address, a list, or one per chain) takes this kind of address. */
export function takes(role: FieldRole, address: Pick<AddressMention, 'kind'>): boolean {
  return (role.kind === 'address' || role.kind === 'addresses' || role.kind === 'chainAddresses') && (role.accepts ?? ['evm']).includes(address.kind);
}

/** How many addresses a tool's fields can take: one per address field, any number in a list or per chain. */
export function addressCapacity(roles: ReadonlyMap<string, FieldRole>): number {
  let n = 0;
  for (const role of roles.values()) n += role.kind === 'address' ? 1 : role.kind === 'addresses' || role.kind === 'chainAddresses' ? Infinity : 0;
  return n;
}

/** The smallest allowed duration that covers the wanted one (the largest when none does). */
function nearestDuration(values: readonly string[], seconds: number | null): string | undefined {
  if (seconds === null) return undefined;
  const sorted = values.map((v) => ({ v, s: durationSeconds(v)! })).sort((a, b) => a.s - b.s);
  return (sorted.find((x) => x.s >= seconds) ?? sorted[sorted.length - 1])?.v;
}

/**
 * The enum value the prompt points at most: by the value's own words ("moving-average-cross" for
 * "moving average crossover") and by its gloss in the field description, written
 * `value (gloss)` ("progress (closest to graduation first)" for "closest to graduating").
 */
function bestChoice(values: readonly string[], terms: readonly string[], description = ''): string | undefined {
  const glosses = new Map([...description.matchAll(/([\w-]+) \(([^)]*)\)/g)].map((m) => [m[1]!, m[2]!]));
  const matches = (w: string) => {
    const s = stem(w);
    // A prefix with letters after it ("graduat" / "graduation"), not a number ("base" is not "base64").
    const extends_ = (long: string, short: string) => short.length >= 4 && long.startsWith(short) && /[a-z]/.test(long.slice(short.length));
    return terms.some((t) => t === s || extends_(s, t) || extends_(t, s));
  };
  let best: { value: string; hits: number } | undefined;
  for (const value of values) {
    const words = [...value.split(/[-_\s]+/), ...(glosses.get(value) ?? '').split(/[^A-Za-z0-9]+/).filter((w) => w.length > 3)];
    const hits = new Set(words.filter(matches).map(stem)).size;
    if (hits > 0 && (!best || hits > best.hits)) best = { value, hits };
  }
  return best?.value;
}

function clamp(value: unknown, role: FieldRole): unknown {
  if (typeof value !== 'number') return value;
  let v = value;
  if (role.minimum !== undefined) v = Math.max(role.minimum, v);
  if (role.maximum !== undefined) v = Math.min(role.maximum, v);
  return v;
}
