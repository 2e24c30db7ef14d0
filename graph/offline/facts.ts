/**
 * What a plain-language prompt states that a skill can take as an argument: addresses and the
 * noun that introduces each, transaction hashes, chain names, token symbols, time windows, candle
 * sizes, row counts and "N/M" window pairs. Everything here is generic grammar, never a rule for
 * one prompt; the vocabulary (chains, assets) is projected from the chain catalogue.
 */
import { stemmer } from 'stemmer';
import lemmatizer from 'wink-lemmatizer';
import { CHAINS, CHAIN_NAMES, STOCK_CHAIN, type ChainName } from '../../chain/chains.js';
import { CANONICAL_ASSETS } from '../../skills/data/resolve.js';

export interface AddressMention {
  readonly value: string;
  /** The noun right before it ("wallet", "token", "contract"...), if any. */
  readonly cue: string | null;
  /** An EVM account (0x + 40 hex), or a Bitcoin address by its shape (bech32 bc1…, base58 1… / 3…). */
  readonly kind: AddressKind;
}

export type AddressKind = 'evm' | 'bitcoin';

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
  /** A number with the words written after it (its unit among them), lower-case: "64 bytes", "20 sat/vB", "32 random bytes". */
  readonly quantities: readonly { readonly value: number; readonly units: readonly string[] }[];
  /** Numbers the prompt writes on their own or inside a name ("ML-DSA-87" → 87), for enum values that carry one. */
  readonly numerals: readonly string[];
  /** The prompt speaks of its own account ("my wallet", "our bitcoin address") without writing one. */
  readonly ownAccountUnwritten: boolean;
  /** The prompt as planned (instructions to the agent left out), for a field that takes the objective in plain words. */
  readonly text: string;
  /** Stemmed content words, for ranking. */
  readonly terms: readonly string[];
  /**
   * The lemmas the prompt wrote for each stem ("earnings" for earn): a word of a missing
   * capability's that shares its stem with a working skill's tag ("earn") names that capability
   * only in its own form (graph/offline/rank.ts).
   */
  readonly forms: ReadonlyMap<string, ReadonlySet<string>>;
}

const ADDRESS = /0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/g;
/**
 * Bitcoin mainnet addresses by shape: bech32/bech32m (bc1 + the bech32 alphabet, one case) and
 * base58check P2PKH/P2SH (1… / 3…, 26-35 characters of the base58 alphabet, a letter among them so a
 * long number is not one). The skill checks the checksum before payment.
 */
const BITCOIN_ADDRESS = /(?<![A-Za-z0-9])(?:bc1[02-9ac-hj-np-z]{11,87}|BC1[02-9AC-HJ-NP-Z]{11,87}|[13](?=[1-9A-HJ-NP-Za-km-z]*[A-Za-z])[1-9A-HJ-NP-Za-km-z]{25,34})(?![A-Za-z0-9])/g;
const TX_HASH = /0x[0-9a-fA-F]{64}(?![0-9a-fA-F])/g;
const OWN_ACCOUNT = /\b(?:my|our)\s+(?:[a-z-]+\s+)?(?:wallets?|address(?:es)?|accounts?)\b/i;
/** Units and abbreviations written for the word the registry uses ("sat/vB" is satoshis per vbyte). */
const ABBREVIATIONS: Record<string, string> = { vb: 'vbyte', vbytes: 'vbyte', vsize: 'vbyte', sat: 'sats', satoshi: 'sats', satoshis: 'sats' };
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

/**
 * Chain words: each name, and the distinctive words of its title ("arbitrum", "bnb", "zksync"), the
 * stock chain's among them ("robinhood"): a prompt naming it is about that chain, and a skill whose
 * chains leave it out fits worse.
 */
const CHAIN_WORDS: ReadonlyMap<string, ChainName> = new Map(
  [...CHAIN_NAMES, STOCK_CHAIN].flatMap((name) => {
    const title = CHAINS[name].title.toLowerCase().split(/\s+/).filter((w) => w.length > 2 && !['one', 'smart', 'chain', 'pos', 'era', 'mainnet'].includes(w));
    return [name, ...title].map((w) => [w, name] as const);
  }),
);

export function promptFacts(prompt: string, vocabulary: ReadonlySet<string> = new Set()): PromptFacts {
  const txHashes = [...prompt.matchAll(TX_HASH)].map((m) => m[0].toLowerCase());
  const withoutHashes = prompt.replace(TX_HASH, ' ');
  // Both kinds in the order written; bech32 is case-insensitive (written lower-case), base58 is not.
  const addresses = [
    ...[...withoutHashes.matchAll(ADDRESS)].map((m) => ({ at: m.index, value: m[0].toLowerCase(), kind: 'evm' as const })),
    ...[...withoutHashes.matchAll(BITCOIN_ADDRESS)].map((m) => ({ at: m.index, value: /^bc1/i.test(m[0]) ? m[0].toLowerCase() : m[0], kind: 'bitcoin' as const })),
  ]
    .sort((a, b) => a.at - b.at)
    .map(({ at, value, kind }) => ({ value, cue: cueBefore(withoutHashes.slice(0, at)) ?? cueAfter(withoutHashes.slice(at + value.length)), kind }));
  const text = withoutHashes.replace(ADDRESS, ' ').replace(BITCOIN_ADDRESS, ' ');
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
    // The unit may follow a word or two that qualify it ("32 random bytes").
    quantities: [...text.matchAll(/(?<![\w.,])(\d+(?:\.\d+)?)\s*((?:[A-Za-z][A-Za-z/]*\s+){0,2}[A-Za-z][A-Za-z/]*)/g)].map((m) => ({ value: Number(m[1]), units: m[2]!.toLowerCase().split(/\s+/) })),
    numerals: [...new Set([...text.matchAll(/(?<![A-Za-z0-9_.])\d+(?![\d.])/g)].map((m) => m[0]))],
    ownAccountUnwritten: !addresses.length && OWN_ACCOUNT.test(text),
    text: prompt.trim(),
    // A ticker names the subject, not the question: it must not match skills whose examples name that token.
    terms: words
      .filter((w) => !symbols.includes(w.replace(/^\$/, '').toUpperCase()))
      .map((w) => termOf(w, symbols, vocabulary))
      .filter((t): t is string => t !== null),
    forms: formsOf(words, symbols, vocabulary),
  };
}

/** Each content word's lemma under its stem, compound parts included (a ticker in one is not a word, as in termOf). */
function formsOf(words: readonly string[], symbols: readonly string[], vocabulary: ReadonlySet<string>): Map<string, Set<string>> {
  const forms = new Map<string, Set<string>>();
  for (const parts of words.map((w) => w.split(/[-/]+/).filter(Boolean))) {
    for (const part of parts) {
      if (parts.length > 1 && /^[A-Z][A-Z0-9]{1,9}$/.test(part) && !vocabulary.has(part.toLowerCase())) continue;
      const word = spelledOut(part.toLowerCase());
      const term = wordTerm(word, symbols);
      if (term !== null) forms.set(term, (forms.get(term) ?? new Set<string>()).add(lemmaOf(word)));
    }
  }
  return forms;
}

/**
 * A word's term: its stem, or null when it carries no meaning for choosing a skill. A compound
 * ("post-quantum", "sat/vB", "front-running") is one term of its parts' stems joined by '-', since
 * the registry's words are split so ("ml-kem" → ml, kem); a name with its number ("BRC-20") is the
 * name or both together ("brc|brc20"). A ticker in a compound ("ETH/USDC") is a ticker, not a word.
 */
function termOf(word: string, symbols: readonly string[], vocabulary: ReadonlySet<string>): string | null {
  const parts = word.split(/[-/]+/).filter(Boolean);
  if (parts.length === 2 && /^[A-Za-z]+$/.test(parts[0]!) && /^\d+$/.test(parts[1]!)) {
    const name = wordTerm(parts[0]!.toLowerCase(), symbols);
    return name && `${name}|${stem(`${parts[0]}${parts[1]}`)}`;
  }
  const stems = parts
    .filter((p) => parts.length === 1 || !/^[A-Z][A-Z0-9]{1,9}$/.test(p) || vocabulary.has(p.toLowerCase()))
    .map((p) => wordTerm(p.toLowerCase(), symbols))
    .filter((t): t is string => t !== null);
  return stems.length ? stems.join('-') : null;
}

/** The word the registry uses for an abbreviation or unit ("vB" → vbyte, "sat" → sats, not the verb). */
export function spelledOut(word: string): string {
  return ABBREVIATIONS[word] ?? word;
}

function wordTerm(word: string, symbols: readonly string[]): string | null {
  const w = spelledOut(word);
  if (w.length <= 1 || !/[a-z]/.test(w) || /^\d+[a-z]{1,3}$/.test(w) || STOPWORDS.has(w) || CHAIN_WORDS.has(w) || symbols.includes(w.toUpperCase())) return null;
  return stem(w);
}

/** A compound term's parts, each with its alternatives: "front-run" → [[front], [run]]; "brc|brc20" → [[brc, brc20]]. */
export function termParts(term: string): string[][] {
  return term.split('-').map((p) => p.split('|'));
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

/**
 * Verbs whose subject is an account: an address right before one ("did 0x.. make or lose",
 * "what does 0x.. hold") is a wallet, not a token.
 */
const ACCOUNT_VERBS = new Set(['hold', 'own', 'make', 'earn', 'lose', 'buy', 'sell', 'trade', 'swap', 'send', 'receive', 'spend', 'deposit', 'withdraw', 'bridge', 'stake', 'farm', 'approve', 'sign']);

function cueAfter(after: string): string | null {
  const next = /^\s+([a-z]+)/i.exec(after)?.[1]?.toLowerCase();
  return next && ACCOUNT_VERBS.has(lemmaOf(next)) ? 'wallet' : null;
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
