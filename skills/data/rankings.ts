/**
 * Per-token market rows of a chain over a period (`market/v1`): price, change, liquidity, volume,
 * every price and change read through the one pricing function (pricing.ts); and what a row must
 * show to be listed by each ranking.
 */
import type { Checkpoint } from '../../indexer/reader.js';
import { round, type Market } from './market.js';
import type { Period } from './periods.js';
import { periodChange, periodWindow } from './pricing.js';

export interface TokenRow {
  token: string;
  symbol: string | null;
  name: string | null;
  priceUsd: number;
  changePct: number | null;
  /**
   * When changePct is measured from (ISO): the period's start, or later where the token's or the
   * index's history begins inside the period; the change is never labelled as the full period.
   */
  changeSince: string | null;
  liquidityUsd: number;
  volumeUsd: number;
  trades: number;
  pricedBy: string | null;
}

export async function tokenRows(market: Market, checkpoint: Checkpoint, period: Period, fromBlock: number): Promise<TokenRow[]> {
  const { start } = periodWindow(checkpoint, period);
  const volumes = await market.volumes(fromBlock);
  const usdc = market.chain.spec.usdc.toLowerCase();
  const rows: TokenRow[] = [];
  for (const [address, info] of market.tokens) {
    if (address === usdc) continue; // the numeraire
    const now = market.priceNow(address);
    if (!now) continue;
    const change = await periodChange(market, address, now.usd, fromBlock, start);
    rows.push({
      token: info.address,
      symbol: info.symbol,
      name: info.name,
      priceUsd: now.usd,
      changePct: change?.pct ?? null,
      changeSince: change ? new Date(change.since * 1000).toISOString() : null,
      liquidityUsd: round(liquidityOf(market, address), 2),
      volumeUsd: round(volumes.get(address)?.usd ?? 0, 2),
      trades: volumes.get(address)?.trades ?? 0,
      pricedBy: now.pool?.pair ?? null,
    });
  }
  return rows;
}

/** A token's USD liquidity: the sum over its pools whose both sides are priced. */
export function liquidityOf(market: Market, token: string): number {
  return market.pools.filter((p) => p.token0 === token || p.token1 === token).reduce((sum, p) => sum + (market.liquidityUsd(p) ?? 0), 0);
}

/** A row's change window in words: "over the period", or "since <time>" when its history begins inside it. */
export function changeSpan(row: Pick<TokenRow, 'changeSince'>, checkpoint: Pick<Checkpoint, 'timestamp'>, period: Period): string {
  return row.changeSince && Date.parse(row.changeSince) / 1000 > periodWindow(checkpoint, period).start ? `since ${row.changeSince}` : 'over the period';
}

/**
 * What a token must show to be listed by a ranking: only rows that are what the ranking's name
 * says. A gainer rose and traded in the window (a price that moved only with its quote is no
 * gain of its own), a loser fell and traded, the volume ranking lists what traded, the liquidity
 * ranking what has priced liquidity. Fewer rows than the limit is the honest answer.
 */
export const RANKING_RULES = {
  liquidity: { criterion: 'has priced liquidity', qualifies: (r: TokenRow) => r.liquidityUsd > 0, order: (a: TokenRow, b: TokenRow) => b.liquidityUsd - a.liquidityUsd },
  volume: { criterion: 'traded in the window', qualifies: (r: TokenRow) => r.trades > 0, order: (a: TokenRow, b: TokenRow) => b.volumeUsd - a.volumeUsd },
  gainers: { criterion: 'rose over the window and traded in it', qualifies: (r: TokenRow) => r.trades > 0 && r.changePct !== null && r.changePct > 0, order: (a: TokenRow, b: TokenRow) => b.changePct! - a.changePct! },
  losers: { criterion: 'fell over the window and traded in it', qualifies: (r: TokenRow) => r.trades > 0 && r.changePct !== null && r.changePct < 0, order: (a: TokenRow, b: TokenRow) => a.changePct! - b.changePct! },
} as const;

export type RankedBy = keyof typeof RANKING_RULES;

/** The rows that qualify for a ranking, in its order (the limit and the screen come after). */
export function qualifying<T extends TokenRow>(rows: readonly T[], by: RankedBy): T[] {
  const rule = RANKING_RULES[by];
  return rows.filter(rule.qualifies).sort(rule.order);
}
