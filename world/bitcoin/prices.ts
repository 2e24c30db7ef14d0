/**
 * BTC/USD for the Bitcoin chain: before the world's origin a pre-history path of our own (a
 * log-linear walk through the market's well-known levels, cents in 2010 to tens of thousands in
 * the 2020s, with seeded wiggles), joined at the origin to the world's reference path, which
 * every EVM chain follows too.
 */
import { Rng } from '../../lib/random.js';
import type { ReferencePaths } from '../reference.js';
import type { BtcPrices } from '../../chain/bitcoin.js';

/** (date, USD) levels the pre-history passes near; the last one joins the reference path at the origin. */
const ANCHORS: readonly (readonly [string, number])[] = [
  ['2009-01-03', 0.0008], ['2010-07-17', 0.05], ['2011-06-08', 29], ['2011-11-18', 2.1], ['2013-04-09', 230], ['2013-07-05', 68],
  ['2013-12-04', 1150], ['2015-01-14', 170], ['2016-07-01', 680], ['2017-12-17', 19_500], ['2018-12-15', 3_200],
  ['2019-06-26', 13_000], ['2020-03-12', 4_900], ['2021-04-14', 64_000], ['2021-07-20', 29_800], ['2021-11-10', 68_000],
  ['2022-11-21', 15_800], ['2023-10-01', 27_000], ['2024-03-14', 73_000], ['2024-09-06', 53_000], ['2024-12-17', 106_000],
  ['2025-04-08', 76_000], ['2025-10-06', 124_000],
];

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000;

export class BtcPricePath implements BtcPrices {
  readonly source: string;
  private readonly anchors: { t: number; log: number }[];
  /** Seeded wiggle around the anchors: amplitudes and phases of a few slow waves. */
  private readonly waves: { amp: number; period: number; phase: number }[];

  constructor(seed: string, private readonly reference: ReferencePaths) {
    this.source = `world reference path (seed ${seed}) after ${new Date(reference.origin * 1000).toISOString()}, pre-history path before`;
    const origin = reference.origin;
    this.anchors = ANCHORS.filter(([d]) => day(d) < origin - 86_400 * 30).map(([d, usd]) => ({ t: day(d), log: Math.log(usd) }));
    this.anchors.push({ t: origin, log: Math.log(reference.priceUsd('BTC', origin)) });
    const rng = new Rng(`btc-prehistory:${seed}`);
    this.waves = Array.from({ length: 4 }, (_, i) => ({ amp: 0.04 + rng.next() * 0.06, period: 86_400 * (9 + 40 * i + rng.next() * 20), phase: rng.next() * 2 * Math.PI }));
  }

  at(time: number): number {
    if (time >= this.reference.origin) return this.reference.priceUsd('BTC', time);
    return Math.exp(this.logAt(time));
  }

  private logAt(time: number): number {
    const a = this.anchors;
    if (time <= a[0]!.t) return a[0]!.log;
    let i = 1;
    while (i < a.length - 1 && a[i]!.t < time) i++;
    const lo = a[i - 1]!;
    const hi = a[i]!;
    const f = Math.min(1, (time - lo.t) / (hi.t - lo.t));
    // The wiggle vanishes at each anchor (sin(πf) = 0 there), so the path meets the origin's price exactly.
    const wiggle = this.waves.reduce((s, w) => s + w.amp * Math.sin((2 * Math.PI * time) / w.period + w.phase), 0) * Math.sin(Math.PI * f);
    return lo.log + (hi.log - lo.log) * f + wiggle;
  }
}
