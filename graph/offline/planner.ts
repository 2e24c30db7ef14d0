/**
 * The offline planner: the deterministic stand-in for a language model, in the same seat of the
 * report agent (chat-model.ts). It picks the best-ranked skill, fills and validates its
 * arguments, and when the prompt names nothing a skill does, or leaves out what the skill needs,
 * says so instead of guessing.
 */
import { promptFacts, type PromptFacts } from './facts.js';
import { classifyFields, fillArgs, OTHER_CHAINS } from './args.js';
import { promptNamesChain, ToolIndex, type Ranked } from './rank.js';
import { DOSSIERS, type Dossier } from './dossiers.js';
import { isWorking } from '../../skills/core/registry.js';
import { missingCapability } from '../../skills/catalog/planned.js';
import type { MissingCapability } from '../../skills/core/errors.js';
import type { AgentTool } from '../tools.js';

/** Below this score no skill is said to fit (a one-word, common-term match is not a fit). */
export const MIN_FIT_SCORE = 2.5;
/**
 * Without a chain, address or transaction named, a fit needs this many of the prompt's terms
 * matched, and this share of them: one word a skill happens to use ("world", "good", "explain")
 * is how off-topic questions look. Calibrated on the dev and held-out sets against
 * test/fixtures/report-prompts.offtopic.jsonl (docs/skills.md, "Report agent").
 */
const MIN_MATCHED_TERMS = 2;
const MIN_MATCHED_SHARE = 1 / 3;
/** A fit within this share of the best one's score counts as as good, when it can run and the best cannot. */
const CLOSE_FIT = 0.8;
/** How many alternatives a refusal names, each with an example question. */
const SUGGESTIONS = 3;

/**
 * Why the planner refuses a prompt before anything runs: `domain_disabled` (or the skill's own
 * code, `provider_unavailable`) when the prompt is about a capability this deployment lacks.
 */
export type RefusalReason = 'off_topic' | 'injection' | 'weak_fit' | 'missing_arguments' | 'domain_disabled' | 'provider_unavailable';


export interface Suggestion {
  readonly skill: string;
  readonly title: string;
  readonly example: string;
}

export interface PlannedCall {
  readonly tool: AgentTool;
  readonly args: Record<string, unknown>;
}

export type OfflinePlan =
  | {
      readonly kind: 'call';
      readonly calls: readonly PlannedCall[];
      readonly facts: PromptFacts;
      /** Clauses about a result of these calls ("the best one", "its holders"): planned once the results are in. */
      readonly pending: readonly string[];
    }
  | { readonly kind: 'reply'; readonly text: string; readonly reason: RefusalReason; readonly suggestions: readonly Suggestion[]; readonly missing?: MissingCapability };

export interface PreviousCall {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
}

export class OfflinePlanner {
  readonly index: ToolIndex;

  constructor(tools: readonly AgentTool[]) {
    this.index = new ToolIndex(tools, DOSSIERS);
  }

  plan(prompt: string, previous?: PreviousCall): OfflinePlan {
    // Instructions aimed at the agent are not a question: what is left of the prompt is planned.
    const { question, injected } = withoutInjection(prompt);
    const own = promptFacts(question, this.index.vocabulary);
    const facts = withRoomSubject(own, previous);
    const ranked = this.index.rank(facts);
    const prior = previous && this.index.tools.find((t) => t.name === previous.tool);
    const fits = ranked.filter((r) => fitsWell(r, facts, !!prior, injected));
    // A question about a capability this deployment lacks is refused, whatever words it shares with one it has.
    const lacking = lackingSubject(ranked, fits, facts);
    if (lacking) return this.lackingReply(lacking.tool, ranked);
    // Otherwise the question is one for a skill Sibyl has.
    const working = fits.filter((r) => isWorking(r.tool.skill));
    // A follow-up that names no skill of its own ("and on ethereum?", "what about last week?") repeats the last one.
    const followUp = prior && own.terms.length <= 3 && (own.chains.length > 0 || own.windowSeconds !== null || own.addresses.length > 0 || own.symbols.length > 0);
    // Of skills that fit almost as well, one the prompt gives every required argument beats one it
    // cannot run ("deposit 1000 USDC from 0x.. into the best vault": the plan that picks the vault).
    // Not when the prompt is about its own account and leaves it out ("is my wallet exposed?"): that
    // skill asks for the address rather than another answering about something else.
    // The stand-in must be a skill this deployment runs, and one about another chain (Bitcoin) only when the prompt names it.
    const runnable = facts.ownAccountUnwritten ? undefined : working.find((r) => namesHomeChain(r.tool, facts) && r.score >= (working[0]?.score ?? 0) * CLOSE_FIT && !fillArgs(r.tool, facts, {}).missing.length);
    const chosen = runnable?.tool ?? working[0]?.tool ?? (followUp ? prior : undefined);
    // Whatever chose it, a skill this deployment lacks never runs: the question is refused before payment.
    if (chosen && !isWorking(chosen.skill)) return this.lackingReply(chosen, ranked);
    if (!chosen) {
      const near = (ranked[0]?.score ?? 0) >= MIN_FIT_SCORE || (own.chains.length + own.addresses.length + own.txHashes.length > 0 && ranked.some((r) => r.matched.size > 0));
      const reason: RefusalReason = injected && !near ? 'injection' : near ? 'weak_fit' : 'off_topic';
      const suggestions = this.suggestions(ranked);
      const why = {
        injection: 'That reads as instructions to the agent rather than a question; the agent only answers questions about on-chain activity and markets.',
        off_topic: 'That is outside what Sibyl answers (on-chain activity, tokens, wallets, DEX markets, forecasts).',
        weak_fit: 'No skill answers that question well enough to charge for it.',
      }[reason];
      return {
        kind: 'reply',
        reason,
        suggestions,
        text: `${why} Nothing was run and nothing was charged. Closest skills: ${suggestions.map((s) => `${s.title} (${s.skill}), e.g. "${s.example}"`).join('; ')}.`,
      };
    }
    const inherited = prior && (prior === chosen || sharesFields(prior, chosen)) ? previous.args : {};
    const { args, missing } = fillArgs(chosen, facts, inherited);
    if (missing.length) {
      const props = chosen.parameters.properties;
      return {
        kind: 'reply',
        reason: 'missing_arguments',
        suggestions: [suggestionOf(chosen)],
        text:
          `${chosen.skill.title} (${chosen.skill.id}) needs ${missing.map((f) => `\`${f}\` (${props[f]?.description ?? 'required'})`).join(' and ')}, ` +
          'which the question does not give; nothing was run and nothing was charged.',
      };
    }
    const dossier = working.find((r) => r.tool === chosen)?.dossier;
    if (dossier) return { kind: 'call', calls: [{ tool: chosen, args }, ...this.dossierParts(dossier, facts, args)], facts, pending: [] };
    const others = this.otherAsks(question, facts, chosen, args);
    return { kind: 'call', calls: [{ tool: chosen, args }, ...others.calls], facts, pending: others.pending };
  }

  /**
   * The calls for clauses that referred to an earlier result, now that it is in: the reference
   * ("the best one", "its", "that token") is replaced by the subject the result leads with.
   */
  planPending(pending: readonly string[], subject: Subject): PlannedCall[] {
    const calls: PlannedCall[] = [];
    for (const clause of pending) {
      const text = `${clause.replace(new RegExp(REFERENCE.source, 'gi'), subject.address)}${subject.chain ? ` on ${subject.chain}` : ''}`;
      const plan = this.plan(text);
      if (plan.kind !== 'call') continue;
      for (const call of plan.calls) if (!calls.some((c) => c.tool.name === call.tool.name)) calls.push(call);
    }
    return calls;
  }

  /** A dossier's other parts, each about the first part's token or wallet on its chain. */
  private dossierParts(dossier: Dossier, facts: PromptFacts, firstArgs: Record<string, unknown>): PlannedCall[] {
    const subject = Object.values(firstArgs).find((v) => typeof v === 'string' && v !== firstArgs.chain);
    const calls: PlannedCall[] = [];
    for (const id of dossier.parts.slice(1)) {
      const tool = this.index.tools.find((t) => t.skill.id === id)!;
      const { args, missing } = fillArgs(tool, facts, firstArgs);
      // The subject goes into the part's own address field (tokenAddress, walletAddress), whatever the prompt's cue.
      for (const [name, role] of classifyFields(tool)) if (role.kind === 'address' && args[name] === undefined && subject !== undefined) args[name] = subject;
      if (missing.some((f) => args[f] === undefined)) continue;
      calls.push({ tool, args: { ...args, ...(firstArgs.chain !== undefined && 'chain' in tool.parameters.properties && { chain: firstArgs.chain }) } });
    }
    return calls;
  }

  /** The refusal of a question about a skill this deployment lacks: what it is, what it needs, what Sibyl answers instead. */
  private lackingReply(tool: AgentTool, ranked: readonly Ranked[]): OfflinePlan {
    const { skill } = tool;
    const planned = missingCapability(skill);
    const reason: RefusalReason = skill.disabledCode === 'provider_unavailable' ? 'provider_unavailable' : 'domain_disabled';
    const missing: MissingCapability = { skill: skill.id, title: skill.title, domain: planned?.domain ?? null, needs: planned?.needs ?? skill.disabledReason ?? 'an engine this deployment does not have' };
    const why = planned ? `${skill.title} (${skill.id}) needs ${planned.needs}, which this deployment does not have yet` : `${(skill.disabledReason ?? `${skill.title} is not available on this deployment`).replace(/;\s*nothing was charged\.?$/, '')} (${skill.id})`;
    const suggestions = this.suggestions(ranked.filter((r) => r.matched.size > 0));
    return {
      kind: 'reply',
      reason,
      suggestions,
      missing,
      text: `${why} (${reason}): nothing was run and nothing was charged.${suggestions.length ? ` Sibyl answers instead, e.g.: ${suggestions.map((s) => `${s.title} (${s.skill}), "${s.example}"`).join('; ')}.` : ''}`,
    };
  }

  /** The best-ranked working skills that matched anything, else the catalogue's own services. */
  private suggestions(ranked: readonly Ranked[]): Suggestion[] {
    const working = ranked.filter((r) => isWorking(r.tool.skill) && !r.dossier);
    const matched = working.filter((r) => r.matched.size > 0);
    const catalogued = working.filter((r) => r.tool.skill.catalog);
    const pool = matched.length ? matched : catalogued.length ? catalogued : working;
    return pool.slice(0, SUGGESTIONS).map((r) => suggestionOf(r.tool));
  }

  /**
   * A question that asks two things ("Is it a honeypot? Who holds it?") gets a call for each:
   * every clause whose own best skill differs from the first choice, fits strongly, and has its
   * required arguments (from the clause, else the whole prompt, else the first call) is added.
   */
  private otherAsks(prompt: string, whole: PromptFacts, first: AgentTool, firstArgs: Record<string, unknown>): { calls: PlannedCall[]; pending: string[] } {
    const calls: PlannedCall[] = [];
    const pending: string[] = [];
    const taken = new Set([first.name]);
    // The first call names no token or wallet (a ranking): a clause about "the best one" waits for its rows.
    const firstHasSubject = classifiedAddress(first, firstArgs);
    for (const clause of clauses(prompt)) {
      if (calls.length >= MAX_CALLS - 1) break;
      const own = promptFacts(clause, this.index.vocabulary);
      if (!firstHasSubject && REFERENCE.test(clause) && !own.addresses.length && !own.symbols.length) {
        pending.push(clause);
        continue;
      }
      // The clause's words, with what the whole prompt names ("its holders" is the token's).
      const facts: PromptFacts = {
        ...whole,
        terms: own.terms,
        forms: own.forms,
        windowSeconds: own.windowSeconds ?? whole.windowSeconds,
        candleSeconds: own.candleSeconds ?? whole.candleSeconds,
      };
      const ranked = this.index.rank(facts);
      const best = ranked.find((r) => isWorking(r.tool.skill));
      if (!best || best.score < STRONG_FIT_SCORE || taken.has(best.tool.name)) continue;
      // A clause the first skill also answers ("Can I sell it?" after "Is it a honeypot?") asks nothing new.
      const firstOnClause = ranked.find((r) => r.tool.name === first.name)?.score ?? 0;
      if (firstOnClause >= COVERED_SHARE * best.score) continue;
      const { args, missing } = fillArgs(best.tool, facts, firstArgs);
      if (missing.length) continue;
      taken.add(best.tool.name);
      calls.push({ tool: best.tool, args });
    }
    return { calls, pending };
  }
}

/**
 * A skill about one non-EVM chain (its first tag names it: "bitcoin") stands in for a skill that
 * cannot run only when the prompt speaks of that chain: "top holders" of a token is not BRC-20's.
 */
function namesHomeChain(tool: AgentTool, facts: PromptFacts): boolean {
  const home = OTHER_CHAINS.find((c) => tool.skill.tags[0] === c);
  return !home || promptNamesChain(facts, home);
}

/** Most calls one offline plan makes. */
const MAX_CALLS = 3;
/** A clause's own skill must fit this well to be asked too (a clear match on the skill's name or tags). */
const STRONG_FIT_SCORE = 7;
/** The first skill covers a clause when it scores at least this share of the clause's best. */
const COVERED_SHARE = 0.5;

/** Words that point back at an earlier result: "the best one", "its holders", "that token". */
const REFERENCE = /\b(?:the (?:best|top|first|biggest|largest) one|the winner|that (?:token|one|wallet)|this (?:token|one|wallet)|its|it|them|their)\b/i;

/** What a result leads with: the first row's token (or wallet), on the result's chain. */
export interface Subject {
  readonly address: string;
  readonly chain: string | null;
}

/**
 * In a room, a question that names no token, wallet or chain ("who are its top holders?") is
 * about the earlier question's: its address (cued by the field it filled) or ticker, and its
 * chain, count as named.
 */
function withRoomSubject(facts: PromptFacts, previous: PreviousCall | undefined): PromptFacts {
  if (!previous || facts.addresses.length || facts.symbols.length || facts.txHashes.length) return facts;
  // The earlier call's addresses, read back as the prompt would have written them (an address list's each).
  const addresses = Object.entries(previous.args)
    .flatMap(([field, value]) => (Array.isArray(value) ? value.map((v) => [field, v] as const) : [[field, value] as const]))
    .flatMap(([field, value]) => (typeof value === 'string' ? promptFacts(value).addresses.filter((a) => a.value.length === value.trim().length).map((a) => ({ ...a, cue: /wallet/i.test(field) ? 'wallet' : /token/i.test(field) ? 'token' : null })) : []));
  // A token the earlier question named by its ticker ("AERO") is carried as the ticker.
  const symbols = Object.entries(previous.args)
    .filter((e): e is [string, string] => typeof e[1] === 'string' && /token|symbol|asset/i.test(e[0]) && /^[A-Za-z0-9]{2,15}$/.test(e[1]))
    .map(([, value]) => value.toUpperCase());
  const chain = typeof previous.args.chain === 'string' && !facts.chains.length ? [previous.args.chain as PromptFacts['chains'][number]] : [];
  return { ...facts, addresses, symbols, chains: [...facts.chains, ...chain] };
}

function classifiedAddress(tool: AgentTool, args: Record<string, unknown>): boolean {
  return [...classifyFields(tool)].some(([name, role]) => (role.kind === 'address' || role.kind === 'addresses') && args[name] !== undefined);
}

/**
 * Sentences; questions joined by "and" + a question word; and steps: ", then …", "and its …"
 * (a later step about an earlier one's result).
 */
function clauses(prompt: string): string[] {
  return prompt
    .split(/[?!;]+\s*|\.\s+|,?\s+then\s+|,?\s+and\s+(?=(?:what|who|which|how|is|are|was|were|can|does|do|where|when|show|give|list|its|their|his|her)\b)/i)
    .map((c) => c?.trim())
    .filter((c): c is string => !!c && c.split(/\s+/).length >= 3);
}

/**
 * A skill fits when it scores enough and the prompt is about what it answers: a chain, address
 * or transaction named (or, in a room, the earlier question's), a ticker the skill takes, or
 * enough of its own words matched.
 */
function fitsWell(r: Ranked, facts: PromptFacts, inRoom: boolean, injected: boolean): boolean {
  if (r.score < MIN_FIT_SCORE) return false;
  // A dossier is about one token or wallet: without one named there is nothing to gather.
  if (r.dossier && !facts.addresses.length && !facts.symbols.length) return false;
  if (facts.chains.length || facts.addresses.length || facts.txHashes.length || inRoom) return true;
  // A ticker the skill can take as its token ("Who holds most of LINK?") names the subject too;
  // not beside instructions to the agent, whose capitalised words ("DAN", "AI") are no tickers.
  if (!injected && facts.symbols.length && r.matched.size >= 1 && [...classifyFields(r.tool).values()].some((role) => role.acceptsSymbol || role.kind === 'symbol')) return true;
  const terms = new Set(facts.terms).size;
  return r.matched.size >= MIN_MATCHED_TERMS && r.matched.size >= MIN_MATCHED_SHARE * terms;
}

/** A skill this deployment lacks fits nearly as well as this share of the best working fit, when it matched words no working skill did. */
const LACKING_SHARE = 0.5;
/** On one word, a skill this deployment lacks must score this many times the best working fit. */
const DOMINANT = 2;

/**
 * The skill this deployment lacks (a planned capability, or one turned off here) that the prompt
 * is about, if any: the best-ranked one, when it fits at least as well as every working skill, or
 * when it matched words no working skill matched ("longshot", "congress", "perp") and fits at
 * least half as well as the best. Such a question is about that capability, however many words
 * it shares with one Sibyl has.
 */
function lackingSubject(ranked: readonly Ranked[], fits: readonly Ranked[], facts: PromptFacts): Ranked | undefined {
  // Ranked above zero, it named its subject (rank.ts): with nothing Sibyl has fitting, that is the question.
  const lacking = ranked.find((r) => !isWorking(r.tool.skill) && !r.dossier);
  if (!lacking || lacking.score < MIN_FIT_SCORE) return undefined;
  const working = fits.find((r) => isWorking(r.tool.skill));
  if (!working) return lacking;
  // Beside a working skill that fits, one word of the subject is enough only when it outweighs all
  // the working skill matched and the prompt names nothing on a chain ("has this screenshot been
  // manipulated?"), not when it is one word about a token or pool ("the depth of the WETH pool on base").
  if (lacking.matched.size < MIN_MATCHED_TERMS) return lacking.score >= DOMINANT * working.score && !namesOnChainSubject(facts) ? lacking : undefined;
  if (lacking.score >= working.score) return lacking;
  const own = [...lacking.matched.keys()].filter((term) => !ranked.some((r) => isWorking(r.tool.skill) && r.matched.has(term)));
  return own.length && lacking.score >= LACKING_SHARE * working.score ? lacking : undefined;
}

/** A chain, an address, a transaction or a token named: the prompt is about something on a chain. */
function namesOnChainSubject(facts: PromptFacts): boolean {
  return facts.chains.length + facts.addresses.length + facts.txHashes.length + facts.symbols.length > 0;
}

function suggestionOf(tool: AgentTool): Suggestion {
  return { skill: tool.skill.id, title: tool.skill.title, example: tool.skill.examples[0] ?? tool.skill.title };
}

/**
 * Sentences that address the agent instead of asking about the market: overriding its rules,
 * changing its role, extracting its prompt, configuration or keys, or making it pay.
 */
const INJECTION =
  /\b(ignore|disregard|forget|override|bypass)\b[^.?!]{0,60}\b(instructions?|rules?|prompts?|guidelines|polic(y|ies))\b|\b(system|developer|hidden) (prompt|message|instructions?)\b|\byou are now\b|\bjailbreak|\benvironment variables?\b|\b(api|private|secret) keys?\b|\bseed phrase\b|\brepeat (everything|all|the text)\b[^.?!]{0,30}\babove\b|^\s*(system|assistant)\s*:|\b(send|transfer|pay)\b[^.?!]{0,40}\b(usdc|eth|funds|tokens?|money)\b[^.?!]{0,20}\bto\b/i;

export function withoutInjection(prompt: string): { question: string; injected: boolean } {
  // Clauses, so "…transfer 100 USDC to wallet 0x…, then list the newest pairs" keeps its question.
  const clauses = prompt.split(/(?<=[.?!])\s+|\n+|[,;]\s*|\s+(?=then\b)/i);
  const kept = clauses.filter((c) => !INJECTION.test(c));
  return { question: kept.join(' '), injected: kept.length < clauses.length };
}

function sharesFields(a: AgentTool, b: AgentTool): boolean {
  return Object.keys(a.parameters.properties).some((f) => f in b.parameters.properties);
}
