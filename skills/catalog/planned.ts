/**
 * Capabilities the spec lists whose engine Sibyl does not have yet (
 * media, strategies, ...). They are declared so
 * the report agent recognises such a question and says plainly that this deployment cannot
 * answer it, instead of routing it to a skill that merely shares a word; calling one always
 * fails with `domain_disabled` and charges nothing. They are not published as working skills.
 */
import { z } from 'zod';
import { SibylError } from '../core/errors.js';
import { FREE_USD, type UsdPrice } from '../core/money.js';
import { neverAnswers } from '../core/outputs.js';
import { defineSkill, type CatalogEntry } from '../core/registry.js';

/**
 * Each domain this deployment lacks: what it needs (named when a question about it is refused),
 * and the words people use for its things, as its real providers and the spec call them
 * (a song's vocals, a strategy's walk-forward test, ...). The report agent's planner reads them beside the
 * entries' own tags to recognise a question about the domain (graph/offline/rank.ts); they are
 * not published. A two-word entry is a phrase ("open-interest"). A word a working skill's tags
 * also carry ("yield", "whales", "generate") never marks the domain, and one that shares only its
 * stem with such a tag marks it in its own form only. Venue names that
 * are also tickers (dYdX, GMX) name the venue only when not written in capitals.
 */
export const DISABLED_DOMAINS = {
  media: {
    needs: 'media generation',
    words: ['song', 'music', 'jingle', 'beat', 'vocals', 'instrumental', 'melody', 'soundtrack', 'anthem', 'rap', 'lo-fi', 'lyrics', 'audio', 'voiceover', 'video', 'music-video', 'clip', 'animation', 'render', 'film', 'movie', 'trailer', 'promo', 'gif', 'cartoon'],
  },
  content: {
    needs: 'a content-judging model',
    words: ['rubric', 'fact-check', 'misleading', 'misinformation', 'disinformation', 'coordinated-accounts', 'sockpuppets', 'astroturfing', 'provenance', 'c2pa', 'deepfake', 'doctored', 'photoshopped', 'tampered', 'manipulated', 'authenticity', 'plagiarism', 'clarity', 'readability', 'grammar', 'well-written', 'marketing-copy', 'copywriting', 'tweet', 'article', 'blog', 'whitepaper', 'announcement', 'photo', 'image', 'screenshot', 'grade', 'critique'],
  },
  signals: {
    needs: 'trade-signal and regime models',
    words: ['regime', 'ranging', 'choppy', 'sideways', 'risk-on', 'risk-off', 'bull-market', 'bear-market'],
  },
  // Perps are read on Hyperliquid only: a question about another venue is not answered with its data.
  'perp-venues': {
    needs: 'a perp venue other than Hyperliquid',
    words: ['dydx', 'gmx', 'bybit', 'deribit', 'okx', 'binance-futures', 'aevo', 'drift', 'vertex', 'bitmex'],
  },
  strategies: {
    needs: 'a strategy engine',
    words: ['regime', 'walk-forward', 'deflated-sharpe', 'overfitting', 'optimise', 'hyperparameters', 'grid-search', 'risk-parity', 'allocation', 'allocate', 'split', 'position-sizing', 'kelly', 'kill-switch', 'switch', 'pause', 'trading-bot', 'bot', 'grid-bot'],
  },
  launchpads: { needs: 'a multi-launchpad catalogue', words: [] },
  'agent-memory': { needs: 'an agent context store', words: [] },
  inference: {
    needs: 'a chat-completion engine',
    words: ['chat-completion', 'llm', 'gpt', 'chatgpt', 'openai', 'chatbot', 'language-model', 'messages', 'poem', 'poetry', 'haiku', 'limerick', 'essay', 'write', 'rewrite', 'translate', 'translation', 'paraphrase', 'proofread', 'dialogue', 'conversation', 'roleplay'],
  },
  'platform-stats': { needs: 'a usage-statistics feed', words: [] },
} as const satisfies Record<string, { needs: string; words: readonly string[] }>;
export type DisabledDomain = keyof typeof DISABLED_DOMAINS;

interface Planned<Id extends string> {
  id: Id;
  title: string;
  description: string;
  tags: string[];
  examples: string[];
  price: UsdPrice;
  domain: DisabledDomain;
  catalog?: CatalogEntry;
  /** Not offered to the report agent (its words would pull questions away from working skills): a paid MCP tool's kind, media. */
  kindOnly?: boolean;
  /** Not an A2A skill of the spec (a paid MCP tool's kind only). */
  notA2a?: boolean;
}

/**
 * Declared on the surfaces the spec gives it, so every one of them refuses it the same way
 * (`domain_disabled`, before any payment) instead of answering "no such skill".
 */
function planned<const Id extends string>(p: Planned<Id>) {
  const { kindOnly, notA2a, ...declared } = p;
  const reason = `${needs(p.title, p.domain)}; nothing was charged`;
  return lacking(p.domain, defineSkill({
    ...declared,
    disabledReason: reason,
    description: `${p.description} Not available on this deployment yet (needs ${DISABLED_DOMAINS[p.domain].needs}).`,
    input: z.strictObject({}),
    output: neverAnswers,
    toolName: p.id.replace(/-/g, '_'),
    surfaces: [...(notA2a ? [] : ['a2a' as const]), ...(kindOnly ? [] : ['agent' as const])],
    async handler() {
      throw new SibylError('domain_disabled', reason, { reason: 'domain_disabled' });
    },
  }));
}

const DOMAIN_OF = new WeakMap<object, DisabledDomain>();

/** Records the domain a planned entry stands for. */
function lacking<S extends object>(domain: DisabledDomain, skill: S): S {
  DOMAIN_OF.set(skill, domain);
  return skill;
}

/**
 * The capability a planned entry stands for: its domain and what this deployment lacks for it
 * (`needs`); undefined for any other skill. The report agent names it when it refuses a question
 * about that capability before payment.
 */
export function missingCapability(skill: object): { domain: DisabledDomain; needs: string } | undefined {
  const domain = DOMAIN_OF.get(skill);
  return domain && { domain, needs: DISABLED_DOMAINS[domain].needs };
}

const needs = (title: string, domain: DisabledDomain) => `${title} needs ${DISABLED_DOMAINS[domain].needs}, which this deployment does not have yet`;

export const PLANNED_SKILLS = [
  planned({ id: 'generate-video', domain: 'media', price: '5.00', title: 'Video generation', description: 'Generate a short video from a prompt.', tags: ['video', 'generate', 'media'], examples: ['Make a video of a rocket launch'] }),
  planned({ id: 'generate-song-draft', domain: 'media', price: '0.50', kindOnly: true, title: 'Song draft', description: 'A short draft song or music track (up to 120 s) from a prompt.', tags: ['song', 'music', 'draft', 'media', 'track'], examples: ['Sketch a 60-second lo-fi track'] }),
  planned({ id: 'generate-song-studio', domain: 'media', price: '3.00', kindOnly: true, title: 'Studio song', description: 'A studio-grade song (up to 3 minutes) from a prompt, with vocals, genre, tempo and a chosen provider.', tags: ['song', 'music', 'studio', 'media', 'vocals', 'genre'], examples: ['Produce a 3-minute song with vocals'] }),
  planned({ id: 'inference', domain: 'inference', price: '0.35', kindOnly: true, title: 'Chat completion', description: 'A chat completion from a language model (an LLM) in OpenAI\'s message format.', tags: ['inference', 'chat', 'llm', 'completion', 'language-model', 'messages'], examples: ['Complete this chat'] }),
  planned({ id: 'platform-stats', domain: 'platform-stats', price: FREE_USD, kindOnly: true, title: 'Platform statistics', description: 'Usage statistics of this service: calls served, skills, settlements.', tags: ['platform', 'stats', 'usage'], examples: ['How busy is this service?'] }),
  planned({ id: 'generate-song', domain: 'media', price: '1.25', title: 'Song generation', description: 'Generate a song from a prompt: music with lyrics, vocals and genre.', tags: ['song', 'music', 'generate', 'lyrics', 'media', 'vocals'], examples: ['Write and produce a song about DeFi'] }),
  planned({ id: 'perp-venue-coverage', domain: 'perp-venues', price: FREE_USD, kindOnly: true, notA2a: true, title: 'Other perp venues', description: 'Positions, whales and funding on perp venues other than Hyperliquid (dYdX, GMX, centralised futures exchanges).', tags: ['dydx', 'gmx', 'bybit', 'deribit', 'perps', 'traders', 'whales', 'positions', 'leverage', 'funding'], examples: ['Track the whales on dYdX', 'Which traders on GMX run the most leverage?'] }),
  // Priced kinds of the paid MCP tools (at their published A2A prices) whose engines are not built yet.
  planned({ id: 'regime-classification', domain: 'signals', price: '0.50', kindOnly: true, title: 'Regime classification', description: 'The market regime (trend, range, stress) per asset, with its inputs.', tags: ['regime', 'ranging', 'classification'], examples: ['Is BTC trending or ranging?'] }),
  planned({ id: 'meta-strategy', domain: 'strategies', price: '1.00', kindOnly: true, title: 'Meta-strategy', description: 'Which strategy family fits the current regime.', tags: ['strategy', 'meta', 'strategies', 'regime'], examples: ['Which strategy fits this market?'] }),
  planned({ id: 'optimize-strategy-params', domain: 'strategies', price: '2.00', kindOnly: true, title: 'Strategy parameter optimisation', description: 'Parameters of a trading strategy or bot optimised on history, out of sample.', tags: ['strategy', 'optimise', 'optimize', 'optimisation', 'parameters', 'tuning'], examples: ['Optimise my moving-average strategy'] }),
  planned({ id: 'portfolio-risk-allocation', domain: 'strategies', price: '0.50', kindOnly: true, title: 'Portfolio risk allocation', description: 'Position sizes by risk contribution for a portfolio (risk parity).', tags: ['allocation', 'position-sizing', 'sizing', 'risk-parity', 'risk-contribution'], examples: ['How should I size my positions?'] }),
  planned({ id: 'strategy-allocation-recommendation', domain: 'strategies', price: '1.00', kindOnly: true, title: 'Strategy allocation', description: 'Capital split across trading strategies from their track records.', tags: ['strategy', 'strategies', 'allocation', 'allocate', 'capital'], examples: ['Split my capital across strategies'] }),
  planned({ id: 'strategy-gate', domain: 'strategies', price: '0.50', kindOnly: true, title: 'Strategy gate', description: 'Whether a strategy may trade now, from regime and risk checks.', tags: ['strategy', 'gate', 'risk'], examples: ['Should my strategy trade today?'] }),
  planned({ id: 'content-judge', domain: 'content', price: '0.05', kindOnly: true, title: 'Content judge', description: 'A quick judgement of a piece of content (a post, an article) against a rubric.', tags: ['content', 'judge', 'rubric'], examples: ['Judge this post'] }),
  planned({ id: 'integrity-deep-scan', domain: 'content', price: '1.00', kindOnly: true, title: 'Integrity deep scan', description: 'A deep check of content (an image, a text) for manipulation, tampering and provenance.', tags: ['content', 'integrity', 'provenance', 'manipulated', 'tampered', 'deepfake'], examples: ['Is this image manipulated?'] }),
  planned({ id: 'launchpad-catalog', domain: 'launchpads', price: '0.25', kindOnly: true, notA2a: true, title: 'Launchpad catalogue', description: 'Launchpads across chains with their fees, volumes and graduation rules.', tags: ['launchpads', 'catalogue'], examples: ['Compare the launchpads'] }),
  planned({ id: 'agent-context', domain: 'agent-memory', price: '1.00', kindOnly: true, title: 'Agent context', description: 'A compact market context for another agent, refreshed per call.', tags: ['agent', 'context', 'memory'], examples: ['Give my agent the market context'] }),
  // Free tools of the tool server whose feeds this deployment does not have.
];
