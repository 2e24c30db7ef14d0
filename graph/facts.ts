/**
 * What a plain-language prompt states that a skill can take as an argument: addresses and the
 * noun that introduces each, transaction hashes, chain names, token symbols, time windows, candle
 * sizes, row counts and "N/M" window pairs. Everything here is generic grammar, never a rule for
 * one prompt; the vocabulary (chains, assets) is projected from the chain catalogue.
 */
import { stemmer } from 'stemmer';
import lemmatizer from 'wink-lemmatizer';
import { CHAINS, CHAIN_NAMES, type ChainName } from '../chain/chains.js';
import { CANONICAL_ASSETS } from '../skills/intel/resolve.js';

export interface AddressMention {
  readonly value: string;
  /** The noun right before it ("wallet", "token", "contract"...), if any. */
  readonly cue: string | null;
}

export interface PromptFacts {
  readonly addresses: readonly AddressMention[];
  readonly txHashes: readonly string[];
  readonly chains: readonly ChainName[];
  readonly symbols: readonly string[];
  /** A window to look back (or ahead) over, in seconds: "last 4 hours", "this week", "30d". */
  readonly windowSeconds: number | null;
  /** A candle size in seconds: "4h chart", "daily candles". */
  readonly candleSeconds: number | null;
  /** "top 10", "10 results". */
  readonly count: number | null;
  /** "20/50" written as a pair of windows. */
  readonly pair: readonly [number, number] | null;
  /** A quantity of a token, in its own units: "1000 USDC", "0.5 ETH", "2,500 WETH". */
  readonly amounts: readonly { readonly value: string; readonly symbol: string }[];
  /** Stemmed content words, for ranking. */
  readonly terms: readonly string[];
}

const ADDRESS = /0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/g;
const TX_HASH = /0x[0-9a-fA-F]{64}(?![0-9a-fA-F])/g;
const ADDRESS_CUES = ['wallet', 'address', 'token', 'contract', 'pool', 'pair', 'account', 'deployer', 'creator', 'holder', 'trader'];

const UNIT_SECONDS: Record<string, number> = {
  m: 60, min: 60, mins: 60, minute: 60, minutes: 60,
  h: 3_600, hr: 3_600, hrs: 3_600, hour: 3_600, hours: 3_600, hourly: 3_600,
  d: 86_400, day: 86_400, days: 86_400, daily: 86_400, today: 86_400,
  w: 604_800, wk: 604_800, week: 604_800, weeks: 604_800, weekly: 604_800,
  fortnight: 1_209_600,
  mo: 2_592_000, month: 2_592_000, months: 2_592_000, monthly: 2_592_000,
};
const NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12, fourteen: 14, thirty: 30 };
const CANDLE_NOUNS = /^(chart|charts|candle|candles|candlestick|candlesticks|timeframe|bars?|interval)$/;

/** Function words that carry no meaning for choosing a skill. */
const STOPWORDS = new Set(
  ('a an the and or but if of on in at to for from by with without within about into over under between is are was were be been being do does did ' +
    'have has had i me my we our you your it its this that these those there here what which who whom whose when where why how ' +
    'can could should would will shall may might must any some all each every no not yes please give show tell list find get me ' +
    'right now currently latest just also than then so very much many more most less few up down out off again last past next ' +
    'hour hours day days week weeks month months today h d w m ' +
    // Superlatives rank within a skill's answer; they do not say which skill.
    'best worst highest lowest biggest largest smallest most least top').split(' '),
);

/** Chain words: each name, and the distinctive words of its title ("arbitrum", "bnb", "zksync"). */
const CHAIN_WORDS: ReadonlyMap<string, ChainName> = new Map(
  CHAIN_NAMES.flatMap((name) => {
    const title = CHAINS[name].title.toLowerCase().split(/\s+/).filter((w) => w.length > 2 && !['one', 'smart', 'chain', 'pos', 'era', 'mainnet'].includes(w));
    return [name, ...title].map((w) => [w, name] as const);
  }),
);

export function promptFacts(prompt: string, vocabulary: ReadonlySet<string> = new Set()): PromptFacts {
  const txHashes = [...prompt.matchAll(TX_HASH)].map((m) => m[0].toLowerCase());
  const withoutHashes = prompt.replace(TX_HASH, ' ');
  const addresses = [...withoutHashes.matchAll(ADDRESS)].map((m) => ({ value: m[0].toLowerCase(), cue: cueBefore(withoutHashes.slice(0, m.index)) }));
  const text = withoutHashes.replace(ADDRESS, ' ');
  const words = text.split(/[^A-Za-z0-9$/.%-]+/).map((w) => w.replace(/^[.%-]+|[.%-]+$/g, '')).filter(Boolean);
  const lower = words.map((w) => w.toLowerCase());

  const chains: ChainName[] = [];
  const chainWordAt = new Set<number>();
  words.forEach((w, i) => {
    const chain = CHAIN_WORDS.get(lower[i]!);
    if (!chain) return;
    // An all-caps word is a ticker (BNB, ETH), not a chain name, unless "chain" or "network" follows it.
    const ticker = w.length > 1 && w === w.toUpperCase() && /[A-Z]/.test(w) && chain !== lower[i] && !/^(chain|network)$/.test(lower[i + 1] ?? '');
    if (ticker) return;
    chainWordAt.add(i);
    if (!chains.includes(chain)) chains.push(chain);
  });

  const symbols: string[] = [];
  words.forEach((w, i) => {
    const bare = w.replace(/^\$/, '');
    const upper = bare.toUpperCase();
    const isTicker = (w.startsWith('$') && /^[A-Za-z][A-Za-z0-9]{1,14}$/.test(bare)) || (/^[A-Z][A-Z0-9]{1,9}$/.test(bare) && !vocabulary.has(lower[i]!) && !CHAIN_WORDS.has(lower[i]!));
    const isAsset = CANONICAL_ASSETS.includes(upper) && (bare === upper || !CHAIN_WORDS.has(lower[i]!));
    if ((isTicker || isAsset) && !chainWordAt.has(i) && !UNIT_SECONDS[lower[i]!] && !symbols.includes(upper)) symbols.push(upper);
  });

  const { windowSeconds, candleSeconds } = durations(lower);
  return {
    addresses,
    txHashes,
    chains,
    symbols,
    windowSeconds,
    candleSeconds,
    count: countOf(lower),
    pair: pairOf(text),
    amounts: amountsOf(text, symbols),
    // A ticker names the subject, not the question: it must not match skills whose examples name that token.
    terms: lower.filter((w) => w.length > 1 && /[a-z]/.test(w) && !/^\d+[a-z]{1,3}$/.test(w) && !STOPWORDS.has(w) && !CHAIN_WORDS.has(w) && !symbols.includes(w.replace(/^\$/, '').toUpperCase())).map(stem),
  };
}

/**
 * A word's comparable form: its dictionary lemma (WordNet's exceptions, so irregular forms meet
 * their base: "made" → make, "sold" → sell, "losers" → loser), then its Porter stem.
 */
export function stem(word: string): string {
  return stemmer(lemmaOf(word.toLowerCase()));
}

export function lemmaOf(word: string): string {
  for (const form of [lemmatizer.noun(word), lemmatizer.verb(word), lemmatizer.adjective(word)]) if (form !== word) return form;
  return word;
}

function cueBefore(before: string): string | null {
  const tail = before.toLowerCase().split(/[^a-z]+/).filter(Boolean).slice(-3).reverse();
  for (const w of tail) {
    const cue = ADDRESS_CUES.find((c) => w === c || w === `${c}s`);
    if (cue) return cue;
  }
  return null;
}

/** Durations in the words: each "N unit" / "Nh" / "unit" alone; a candle when a chart noun follows. */
function durations(words: readonly string[]): { windowSeconds: number | null; candleSeconds: number | null } {
  let windowSeconds: number | null = null;
  let candleSeconds: number | null = null;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    let seconds: number | null = null;
    let end = i;
    const compact = /^(\d+)(m|min|h|hr|d|w|wk|mo)$/.exec(w);
    if (compact) seconds = Number(compact[1]) * UNIT_SECONDS[compact[2]!]!;
    else if (UNIT_SECONDS[w] !== undefined) {
      const prev = words[i - 1];
      const n = prev === undefined ? null : /^\d+$/.test(prev) ? Number(prev) : (NUMBER_WORDS[prev] ?? null);
      // A bare single-letter unit is only a unit after a number ("4 h").
      if (n === null && w.length <= 2) continue;
      seconds = (n ?? 1) * UNIT_SECONDS[w]!;
    }
    if (seconds === null) continue;
    if (words[end + 1] === '-' ) end++;
    if (CANDLE_NOUNS.test(words[end + 1] ?? '')) candleSeconds ??= seconds;
    else windowSeconds ??= seconds;
  }
  return { windowSeconds, candleSeconds };
}

function countOf(words: readonly string[]): number | null {
  for (let i = 0; i < words.length - 1; i++) {
    // "top 10", but not "last 12 hours" (a window).
    if (['top', 'first', 'last', 'biggest', 'largest', 'best'].includes(words[i]!) && /^\d+$/.test(words[i + 1]!) && UNIT_SECONDS[words[i + 2] ?? ''] === undefined) return Number(words[i + 1]);
  }
  return null;
}

/** A number right before a ticker the prompt names ("deposit 1,000 USDC"): that many of the token. */
function amountsOf(text: string, symbols: readonly string[]): PromptFacts['amounts'] {
  return [...text.matchAll(/(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*\$?([A-Za-z][A-Za-z0-9]{1,14})\b/g)].flatMap((m) => {
    const symbol = m[3]!.toUpperCase();
    return symbols.includes(symbol) ? [{ value: `${m[1]!.replace(/,/g, '')}${m[2] ?? ''}`, symbol }] : [];
  });
}

function pairOf(text: string): readonly [number, number] | null {
  const m = /\b(\d{1,3})\s*\/\s*(\d{1,3})\b/.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : null;
}
