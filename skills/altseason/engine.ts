/**
 * Altcoin season index (`altseason/v1`) of one chain's market: the share of the chain's liquid
 * tokens that did better than the benchmark (BTC, through its wrapped token, else the wrapped
 * native) over the period, as 0-100. The usual reading: 75 and above is altcoin season, 25 and
 * below is bitcoin season.
 */
import { resolveToken } from '../data/resolve.js';
import { round, type Market } from '../data/market.js';
import { periodChangePct, liquidityOf } from '../data/rankings.js';
import { USD_STABLECOINS } from '../yields/engine.js';

export const ALTSEASON_MIN_LIQUIDITY_USD = 50_000;
export const ALTSEASON_METHODOLOGY = `altseason/v1 (tokens with >= $${ALTSEASON_MIN_LIQUIDITY_USD.toLocaleString('en-US')} liquidity, stablecoins and wrapped majors excluded; share whose price change over the period beats the benchmark's (BTC, else the wrapped native); >= 75 altcoin season, <= 25 bitcoin season)`;
const MAJORS = ['WBTC', 'BTCB', 'CBBTC', 'WETH', 'WBNB', 'WPOL'];

export async function altcoinSeason(market: Market, fromBlock: number, startTs: number) {
  const benchmark = pick(market);
  const change = async (token: string) => {
    const now = market.priceNow(token)?.usd;
    return now === undefined ? null : periodChangePct(market, token, now, fromBlock, startTs);
  };
  const benchmarkChange = await change(benchmark);
  if (benchmarkChange === null) return { available: false as const, reason: `the benchmark ${market.tokens.get(benchmark)?.symbol ?? benchmark} has no price over the period` };
  const rows = [];
  for (const [address, info] of market.tokens) {
    const symbol = (info.symbol ?? '').toUpperCase();
    if (address === benchmark || USD_STABLECOINS.includes(symbol) || MAJORS.includes(symbol)) continue;
    if (liquidityOf(market, address) < ALTSEASON_MIN_LIQUIDITY_USD) continue;
    const pct = await change(address);
    if (pct === null) continue;
    rows.push({ token: info.address, symbol: info.symbol, changePct: round(pct, 4), beatBenchmark: pct > benchmarkChange });
  }
  if (!rows.length) return { available: false as const, reason: 'no liquid altcoin has a price over the period' };
  const index = Math.round((100 * rows.filter((r) => r.beatBenchmark).length) / rows.length);
  return {
    available: true as const,
    index,
    season: index >= 75 ? ('altcoin season' as const) : index <= 25 ? ('bitcoin season' as const) : ('neither' as const),
    benchmark: { token: market.tokens.get(benchmark)!.address, symbol: market.tokens.get(benchmark)!.symbol, changePct: round(benchmarkChange, 4) },
    tokensCompared: rows.length,
    tokens: rows.sort((a, b) => b.changePct - a.changePct),
  };
}

function pick(market: Market): string {
  try {
    return resolveToken(market, 'BTC');
  } catch {
    return market.chain.spec.wrappedNative.toLowerCase();
  }
}
