/**
 * What the world's social accounts write (world/modules/social.ts): short posts in the register
 * of crypto social media, per kind of author and intended tone. Some say their tone plainly,
 * some only through slang, negation or numbers, as real posts do: the engine that scores them
 * (skills/social/engine.ts) never sees these lists, and its accuracy on them is measured.
 */
import type { Rng } from '../../lib/random.js';

export type Tone = 'positive' | 'negative' | 'neutral';

interface Fill {
  symbol: string;
  contract: string;
  /** The token's move over the last hours, in % (absolute, one decimal). */
  movePct: number;
}

const ORGANIC: Record<Tone, readonly string[]> = {
  positive: [
    '$SYM looking strong today, volume picking up',
    'been accumulating $SYM, chart looks healthy',
    '$SYM up PCT% in a few hours, nice',
    'bullish on $SYM, buyers keep stepping in',
    'love how $SYM is holding up',
    '$SYM breaking out, great entry this morning',
    '$SYM holders eating good today',
    'not selling my $SYM anytime soon',
    'happy with my $SYM bag, steady climb',
    '$SYM green again, momentum is real',
    'good day for $SYM, up PCT%',
    '$SYM quietly outperforming everything on BSC',
  ],
  negative: [
    '$SYM dumping hard, careful out there',
    'sold my $SYM, chart looks weak',
    '$SYM down PCT%, not looking good',
    'what a terrible week for $SYM holders',
    'bearish on $SYM until it finds support',
    'no bounce on $SYM yet, disappointing',
    '$SYM keeps bleeding, cut my losses',
    'sellers all over $SYM today, ugly candles',
    '$SYM lost PCT% since this morning, worried',
    'regret buying $SYM at the top',
    'not touching $SYM after this drop',
  ],
  neutral: [
    'anyone watching $SYM?',
    "what's the CA for $SYM",
    'added $SYM to my watchlist',
    'thoughts on $SYM?',
    '$SYM moved PCT% over the last few hours',
    'where is $SYM traded, PancakeSwap only?',
    'reading about $SYM tonight',
    'is $SYM on any other chain?',
    '$SYM chart update, see the 4h',
    'who else holds $SYM here',
  ],
};

/** Paid promotion ahead of a dump: loud, new-project, urgency, the contract pasted. */
const SHILL: readonly string[] = [
  '🚀 $SYM is the next 100x gem! LP locked, dev doxxed. CA: CONTRACT',
  '$SYM just launched, early gem, do not miss this one 🔥',
  'huge things coming for $SYM, get in before the pump 🚀🚀',
  '$SYM to the moon! community is amazing, 1000x potential',
  'still early on $SYM, whales are loading. CA CONTRACT',
  '$SYM will be the biggest launch this month, trust me',
  'just aped $SYM, this one is going parabolic 🚀',
  '$SYM marketing push starting now, next stop 10M mcap',
  'safest gem on BSC right now: $SYM. LFG',
  'you will regret not buying $SYM under 1M. CONTRACT',
];

/** A project's own account: announcements, not hype. */
const PROJECT: readonly string[] = [
  '$SYM is live on PancakeSwap. Contract: CONTRACT',
  '$SYM contract verified on BscScan',
  '$SYM roadmap update coming this week',
  'liquidity for $SYM added, trading is open',
  'AMA about $SYM on Friday, bring your questions',
];

/** Holders of a token whose liquidity was pulled. */
const VICTIM: readonly string[] = [
  '$SYM rugged. LP pulled, dev gone. scam',
  'lost everything on $SYM, liquidity removed, total scam',
  '$SYM is a rug, stay away',
  "can't believe the $SYM devs pulled the liquidity",
  '$SYM chart is a straight line down, rug confirmed',
  'rekt by $SYM, the pool is empty',
];

function fill(template: string, f: Fill): string {
  return template.replaceAll('$SYM', `$${f.symbol}`).replaceAll('CONTRACT', f.contract).replaceAll('PCT', f.movePct.toFixed(1));
}

export const organicText = (rng: Rng, tone: Tone, f: Fill) => fill(rng.pick(ORGANIC[tone]), f);
export const shillText = (rng: Rng, f: Fill) => fill(rng.pick(SHILL), f);
export const projectText = (rng: Rng, f: Fill) => fill(rng.pick(PROJECT), f);
export const victimText = (rng: Rng, f: Fill) => fill(rng.pick(VICTIM), f);

const FIRST = ['crypto', 'degen', 'moon', 'chart', 'bnb', 'alpha', 'defi', 'whale', 'ape', 'based', 'block', 'satoshi', 'candle', 'yield', 'pepe', 'doge'];
const SECOND = ['hunter', 'trader', 'maxi', 'guy', 'queen', 'wizard', 'watcher', 'farmer', 'anon', 'lord', 'ninja', 'capital', 'labs', 'calls', 'sniper', 'whisperer'];

/** A handle from two words and a number: `u` and `v` in [0, 1). */
export function handleFor(u: number, v: number, n: number): string {
  return `${FIRST[Math.floor(u * FIRST.length)]}_${SECOND[Math.floor(v * SECOND.length)]}${n}`;
}
