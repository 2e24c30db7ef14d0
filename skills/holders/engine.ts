/**
 * Holder concentration, methodology `holders/v2`: balances replayed from every indexed Transfer
 * of the token; liquidity pools, the zero and burn addresses and the token contract itself are
 * excluded (and listed); top-1 and top-10 shares, the Gini coefficient and the Nakamoto
 * coefficient (fewest holders that together exceed half) over the rest. Each holder is classified
 * once by `entities/v1` (skills/data/entities.ts, as whale tracking classifies it): treasuries,
 * issuers, exchanges, protocol contracts and protocol actors are listed with their kind, and the
 * same figures are given again without them (what wallets acting for themselves hold). The
 * replayed balances must add up to the token's totalSupply on chain, or the index does not cover
 * the token's whole history and no answer is given.
 */
import { erc20Abi, formatUnits, type Address } from 'viem';
import { SibylError } from '../core/errors.js';
import type { Market } from '../data/market.js';
import { ENTITIES_METHODOLOGY, entityBook, type EntityKind } from '../data/entities.js';

export const HOLDERS_METHODOLOGY = `holders/v2 (balances replayed from indexed Transfer logs and checked against totalSupply; pools, zero, burn and token addresses excluded; holders classified by ${ENTITIES_METHODOLOGY}; figures over all holders and again without entities)`;

const BURN = new Set(['0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dead']);
const TOP = 10;

interface Held { holder: string; raw: bigint }

/** Shares, Gini and Nakamoto over `holders` (largest first). */
function concentration(holders: readonly Held[], decimals: number) {
  const circulating = holders.reduce((sum, h) => sum + h.raw, 0n);
  const share = (raw: bigint) => (circulating === 0n ? 0 : Number((raw * 1_000_000n) / circulating) / 10_000);
  let running = 0n;
  let nakamoto = 0;
  for (const h of holders) {
    running += h.raw;
    nakamoto++;
    if (running * 2n > circulating) break;
  }
  // Gini over the holders' balances (ascending): sum((2i - n - 1) x_i) / (n sum x).
  const values = holders.map((h) => Number(formatUnits(h.raw, decimals))).reverse();
  const n = values.length;
  const total = values.reduce((a, b) => a + b, 0);
  const gini = n && total ? values.reduce((acc, x, i) => acc + (2 * (i + 1) - n - 1) * x, 0) / (n * total) : 0;
  return {
    share,
    figures: {
      circulating: formatUnits(circulating, decimals),
      holderCount: n,
      top1Pct: holders[0] ? share(holders[0].raw) : 0,
      top10Pct: share(holders.slice(0, TOP).reduce((s, h) => s + h.raw, 0n)),
      gini: Math.round(gini * 10_000) / 10_000,
      nakamotoCoefficient: circulating === 0n ? 0 : nakamoto,
    },
  };
}

export async function holderConcentration(market: Market, balances: Record<string, string>, token: string) {
  const decimals = market.decimals(token) ?? 18;
  const supply = await market.chain.client.readContract({ address: token as Address, abi: erc20Abi, functionName: 'totalSupply' });
  const all = Object.entries(balances).map(([holder, raw]) => ({ holder: holder.toLowerCase(), raw: BigInt(raw) })).filter((h) => h.raw > 0n);
  const replayed = all.reduce((sum, h) => sum + h.raw, 0n);
  if (replayed !== supply) {
    throw new SibylError('upstream_unavailable', `the index does not hold this token's whole transfer history (replayed ${replayed}, totalSupply ${supply}); nothing was charged`);
  }
  const pools = new Set(market.pools.filter((p) => p.token0 === token || p.token1 === token).map((p) => p.pair));
  const excludedReason = (h: string) => (pools.has(h) ? 'liquidity_pool' : BURN.has(h) ? 'burn_address' : h === token ? 'token_contract' : null);
  const excluded = all.filter((h) => excludedReason(h.holder)).map((h) => ({ address: h.holder, reason: excludedReason(h.holder)!, balance: formatUnits(h.raw, decimals) }));
  const holders = all.filter((h) => !excludedReason(h.holder)).sort((a, b) => (b.raw > a.raw ? 1 : b.raw < a.raw ? -1 : 0));
  const book = await entityBook(market);
  const kind = (h: string): EntityKind | null => book.kind(h);
  const { share, figures } = concentration(holders, decimals);
  const wallets = holders.filter((h) => kind(h.holder) === null);
  const withoutEntities = concentration(wallets, decimals);
  const entities = holders.filter((h) => kind(h.holder) !== null);
  const row = (h: Held) => ({ address: h.holder, balance: formatUnits(h.raw, decimals), sharePct: share(h.raw), entity: kind(h.holder) });
  return {
    totalSupply: formatUnits(supply, decimals),
    ...figures,
    excluded,
    topHolders: holders.slice(0, TOP).map(row),
    /** The holders that are entities (largest first), each with its kind and share of the circulating supply. */
    entities: entities.slice(0, TOP).map((h) => ({ ...row(h), entity: kind(h.holder)!, role: book.of(h.holder)!.role })),
    entityCount: entities.length,
    /** The same figures over the wallets acting for themselves: entities left out. */
    withoutEntities: {
      ...withoutEntities.figures,
      topHolders: wallets.slice(0, TOP).map((h) => ({ address: h.holder, balance: formatUnits(h.raw, decimals), sharePct: withoutEntities.share(h.raw) })),
    },
  };
}
