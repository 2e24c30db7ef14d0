/** Per-token market rows of a chain over a period (`market/v1`): price, change, liquidity, volume. */
import type { Checkpoint } from '../indexer/reader.js';
import { round, type Market } from './market.js';
import { PERIODS, type Period } from './periods.js';

export interface TokenRow {
  token: string;
  symbol: string | null;
  name: string | null;
  priceUsd: number;
  changePct: number | null;
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
    const changePct = await periodChangePct(market, address, now.usd, fromBlock, start);
    rows.push({
      token: info.address,
      symbol: info.symbol,
      name: info.name,
      priceUsd: now.usd,
      changePct,
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
 * A token's price change over a period, in %: from the last price before the period (or the
 * first inside it, for a token listed during the period) to `nowUsd`; null when none is known.
 */
export async function periodChangePct(market: Market, token: string, nowUsd: number, fromBlock: number, start: number): Promise<number | null> {
  const line = await market.timeline(token, fromBlock);
  const before = line.filter((p) => p.ts <= start);
  const opening = before.length ? before[before.length - 1] : line[0];
  return opening ? round(((nowUsd - opening.usd) / opening.usd) * 100, 4) : null;
}
