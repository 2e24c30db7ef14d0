/**
 * The offline planner: the deterministic stand-in for a language model in the same graph
 * position. It picks the best-ranked skill, fills and validates its arguments, and when the
 * prompt names nothing a skill does, or leaves out what the skill needs, says so instead of
 * guessing.
 */
import { promptFacts, type PromptFacts } from './facts.js';
import { fillArgs } from './args.js';
import { ToolIndex } from './rank.js';
import type { AgentTool } from './tools.js';

/** Below this score no skill is said to fit (a one-word, common-term match is not a fit). */
export const MIN_FIT_SCORE = 2.5;
/** How many alternatives a "nothing fits" or "missing argument" reply names. */
const SUGGESTIONS = 4;

export interface PlannedCall {
  readonly tool: AgentTool;
  readonly args: Record<string, unknown>;
}

export type OfflinePlan =
  | { readonly kind: 'call'; readonly calls: readonly PlannedCall[]; readonly facts: PromptFacts }
  | { readonly kind: 'reply'; readonly text: string; readonly reason: 'no_skill_fits' | 'missing_arguments' };

export interface PreviousCall {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
}

export class OfflinePlanner {
  readonly index: ToolIndex;

  constructor(tools: readonly AgentTool[]) {
    this.index = new ToolIndex(tools);
  }

  plan(prompt: string, previous?: PreviousCall): OfflinePlan {
    const facts = promptFacts(prompt, this.index.vocabulary);
    const ranked = this.index.rank(facts);
    const fits = ranked.filter((r) => r.score >= MIN_FIT_SCORE);
    const prior = previous && this.index.tools.find((t) => t.name === previous.tool);
    // A follow-up that names no skill of its own ("and on ethereum?", "what about last week?") repeats the last one.
    const chosen = fits[0]?.tool ?? (prior && facts.terms.length <= 3 ? prior : undefined);
    if (!chosen) {
      return {
        kind: 'reply',
        reason: 'no_skill_fits',
        text:
          'None of Sibyl\'s skills answers that question, so nothing was run and nothing was charged. ' +
          `Closest skills: ${ranked.slice(0, SUGGESTIONS).map((r) => `${r.tool.skill.title} (${r.tool.skill.id})`).join('; ')}.`,
      };
    }
    const inherited = prior && (prior === chosen || sharesFields(prior, chosen)) ? previous.args : {};
    const { args, missing } = fillArgs(chosen, facts, inherited);
    if (missing.length) {
      const props = chosen.parameters.properties;
      return {
        kind: 'reply',
        reason: 'missing_arguments',
        text:
          `${chosen.skill.title} (${chosen.skill.id}) needs ${missing.map((f) => `\`${f}\` (${props[f]?.description ?? 'required'})`).join(' and ')}, ` +
          'which the question does not give; nothing was run and nothing was charged.',
      };
    }
    return { kind: 'call', calls: [{ tool: chosen, args }, ...this.otherAsks(prompt, facts, chosen, args)], facts };
  }

  /**
   * A question that asks two things ("Is it a honeypot? Who holds it?") gets a call for each:
   * every clause whose own best skill differs from the first choice, fits strongly, and has its
   * required arguments (from the clause, else the whole prompt, else the first call) is added.
   */
  private otherAsks(prompt: string, whole: PromptFacts, first: AgentTool, firstArgs: Record<string, unknown>): PlannedCall[] {
    const calls: PlannedCall[] = [];
    const taken = new Set([first.name]);
    for (const clause of clauses(prompt)) {
      if (calls.length >= MAX_CALLS - 1) break;
      const own = promptFacts(clause, this.index.vocabulary);
      // The clause's words, with what the whole prompt names ("its holders" is the token's).
      const facts: PromptFacts = {
        ...whole,
        terms: own.terms,
        windowSeconds: own.windowSeconds ?? whole.windowSeconds,
        candleSeconds: own.candleSeconds ?? whole.candleSeconds,
      };
      const ranked = this.index.rank(facts);
      const best = ranked.find((r) => !r.tool.skill.disabledReason);
      if (!best || best.score < STRONG_FIT_SCORE || taken.has(best.tool.name)) continue;
      // A clause the first skill also answers ("Can I sell it?" after "Is it a honeypot?") asks nothing new.
      const firstOnClause = ranked.find((r) => r.tool.name === first.name)?.score ?? 0;
      if (firstOnClause >= COVERED_SHARE * best.score) continue;
      const { args, missing } = fillArgs(best.tool, facts, firstArgs);
      if (missing.length) continue;
      taken.add(best.tool.name);
      calls.push({ tool: best.tool, args });
    }
    return calls;
  }
}

/** Most calls one offline plan makes. */
const MAX_CALLS = 3;
/** A clause's own skill must fit this well to be asked too (a clear match on the skill's name or tags). */
const STRONG_FIT_SCORE = 7;
/** The first skill covers a clause when it scores at least this share of the clause's best. */
const COVERED_SHARE = 0.5;

/** Sentences, and questions joined by "and" + a question word. */
function clauses(prompt: string): string[] {
  return prompt
    .split(/[?!;]+\s*|\.\s+|,?\s+and\s+(?=(?:what|who|which|how|is|are|was|were|can|does|do|where|when|show|give|list)\b)/i)
    .map((c) => c?.trim())
    .filter((c): c is string => !!c && c.split(/\s+/).length >= 3);
}

function sharesFields(a: AgentTool, b: AgentTool): boolean {
  return Object.keys(a.parameters.properties).some((f) => f in b.parameters.properties);
}
