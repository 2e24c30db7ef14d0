/** Per-token market rows of a chain over a period (`market/v1`): price, change, liquidity, volume. */
import type { Checkpoint } from '../../indexer/reader.js';
import { round, type Market } from './market.js';
import { PERIODS, type Period } from './periods.js';

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
  const start = checkpoint.timestamp - PERIODS[period].seconds;
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

/**
 * A token's price change over a period, in %, and the moment it is measured from (unix seconds):
 * from the last price before the period (`since` = the period's start), or the first inside it
 * for a token listed during the period or an index whose history begins later; null when none is known.
 */
export async function periodChange(market: Market, token: string, nowUsd: number, fromBlock: number, start: number): Promise<{ pct: number; since: number } | null> {
  const opening = await openingPrice(market, token, fromBlock, start);
  return opening ? { pct: round(((nowUsd - opening.usd) / opening.usd) * 100, 4), since: opening.since } : null;
}

/** A token's USD price at the period's start (its last before it), else its first inside the period, with when that is. */
export async function openingPrice(market: Market, token: string, fromBlock: number, start: number): Promise<{ usd: number; since: number } | null> {
  const line = await market.timeline(token, fromBlock);
  const before = line.filter((p) => p.ts <= start);
  const opening = before.length ? before[before.length - 1] : line[0];
  return opening ? { usd: opening.usd, since: Math.max(opening.ts, start) } : null;
}

/** A row's change window in words: "over the period", or "since <time>" when its history begins inside it. */
export function changeSpan(row: Pick<TokenRow, 'changeSince'>, checkpoint: Pick<Checkpoint, 'timestamp'>, period: Period): string {
  const start = checkpoint.timestamp - PERIODS[period].seconds;
  return row.changeSince && Date.parse(row.changeSince) / 1000 > start ? `since ${row.changeSince}` : 'over the period';
}

/** The change alone, where the caller states the window some other way. */
export async function periodChangePct(market: Market, token: string, nowUsd: number, fromBlock: number, start: number): Promise<number | null> {
  return (await periodChange(market, token, nowUsd, fromBlock, start))?.pct ?? null;
}
