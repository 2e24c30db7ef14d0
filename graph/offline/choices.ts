/**
 * The words people use for the values of a choice field whose values are names, not words a
 * prompt writes: the tokenized-equity boards ("trade at a premium" is `stock-pairs`, "can I trust
 * the issuer" is `wrapper-trust`). The values are the skill's own enum (the type keeps this list
 * whole); only how people ask for each is written here. A value's words weigh on the choice only
 * (args.ts), never on which skill answers.
 */
import type { RwaBoard } from '../../skills/stocks/rwa-intel-skill.js';
import { lemmaOf } from './facts.js';

/**
 * Each value's words, in the order ties go: the narrower boards first (the first buyers of one
 * listing before the premiums of all). An entry of several words is met when the prompt has them
 * all, anywhere ("who bought it first"), and counts once per word.
 */
const BOARD_WORDS: Readonly<Record<RwaBoard, readonly string[]>> = {
  'early-buyers': ['first buyer', 'first buy', 'early buyer', 'early buy', 'listing buyer'],
  'trader-record': ['trader', 'track record', 'pnl'],
  // The venue the spec names for the stock chain's own AMM.
  'pons-stock-pairs': ['pons'],
  'event-risk': ['event', 'earnings', 'split', 'dividend', 'ex-dividend', 'corporate action', 'announcement', 'catalyst', 'calendar', 'upcoming'],
  'float-corner': ['float', 'corner', 'squeeze', 'squeezable', 'concentration', 'concentrated', 'holder', 'whale'],
  'wrapper-trust': ['trust', 'trustworthy', 'safe', 'issuer', 'issue', 'wrapper', 'back', 'reserve', 'collateral', 'attestation', 'attest', 'custody', 'custodian', 'redemption', 'redeem', 'impostor', 'fake', 'counterfeit', 'copycat', 'pretend', 'genuine', 'scam', 'mint', 'burn', 'freeze', 'blocklist', 'blacklist', 'pause', 'owner', 'lag'],
  portfolio: ['portfolio', 'allocate', 'allocation', 'exposure', 'build', 'basket', 'diversify', 'diversified', 'weight', 'invest', 'drawdown', 'volatility', 'propose', 'proposal'],
  'stock-pairs': ['premium', 'discount', 'underlying', 'fair value', 'nasdaq', 'nyse', 'exchange', 'list', 'track', 'drift', 'deviate', 'mirror', 'spread', 'gap', 'weekend', 'close', 'overpriced', 'underpriced', 'liquidity', 'liquid', 'volume', 'compare', 'price'],
};

/** Every choice field whose values a glossary covers: its values' words, lemmatised, in the order ties go. */
const GLOSSARIES: readonly (readonly (readonly [string, readonly (readonly string[])[]])[])[] = [BOARD_WORDS].map((words) =>
  Object.entries(words).map(([value, entries]) => [value, entries.map((e) => e.split(/[\s-]+/).map((w) => lemmaOf(w)))] as const),
);
const RAW = [BOARD_WORDS];

/** The words people use for a choice field's values, when a glossary covers them (the ranker's words for the skill's answers). */
export function glossaryWords(values: readonly string[]): readonly string[] {
  const i = GLOSSARIES.findIndex((g) => g.length === values.length && values.every((v) => g.some(([value]) => value === v)));
  return i < 0 ? [] : Object.values(RAW[i]!).flat();
}

/** A prompt's words as they are compared with a glossary's: every word, function words too ("best traders"), lemmatised. */
export function promptLemmas(text: string): ReadonlySet<string> {
  return new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean).map((w) => lemmaOf(w)));
}

/** The glossary of a choice field with these values, if one covers every value. */
function glossaryOf(values: readonly string[]) {
  return GLOSSARIES.find((g) => g.length === values.length && values.every((v) => g.some(([value]) => value === v)));
}

/** Whether the field's values have words of their own here (then only those words choose). */
export function hasGlossary(values: readonly string[]): boolean {
  return glossaryOf(values) !== undefined;
}

/** The value whose words the prompt uses most (ties to the narrower), or undefined when it uses none. */
export function glossaryChoice(values: readonly string[], lemmas: ReadonlySet<string>): string | undefined {
  let best: { value: string; hits: number } | undefined;
  for (const [value, entries] of glossaryOf(values) ?? []) {
    const hits = entries.filter((words) => words.every((w) => lemmas.has(w))).reduce((sum, words) => sum + words.length, 0);
    if (hits > 0 && (!best || hits > best.hits)) best = { value, hits };
  }
  return best?.value;
}
