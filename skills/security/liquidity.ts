/**
 * A token's pool liquidity from the index: who provided it first (the recipient of the first
 * LP tokens minted), how much of their LP they have since burned, how much of the liquidity ever
 * added was removed (Burn against Mint, in the quote asset and in USD at the price of each
 * event's block, and as LP tokens redeemed against LP ever minted), and where the LP supply sits
 * now: burned at the zero/dead address (locked for good), held by contracts (lockers, vaults), or
 * by wallets, as `entities/v1` (../data/entities.ts) tells them apart: an address with contract
 * code is a contract, an EIP-7702 delegated account a wallet (its key can withdraw at will).
 */
import { formatUnits, type Address } from 'viem';
import { rowScore } from '../../indexer/rows.js';
import { entityBook } from '../data/entities.js';
import { round, valueAt, type Market, type Pool } from '../data/market.js';

const DEAD = new Set(['0x000000000000000000000000000000000000dead', '0x0000000000000000000000000000000000000000']);
/** The first provider burned at least this share of their LP and the pool lost at least RUG_POOL_SHARE of what was added. */
export const RUG_PROVIDER_SHARE = 0.8;
export const RUG_POOL_SHARE = 0.5;

export interface PoolLiquidity {
  pool: string;
  dex: string;
  quote: string;
  provider: Address | null;
  providerMintedLp: string | null;
  providerHoldsPct: number | null;
  addedQuote: number;
  removedQuote: number;
  removedPct: number | null;
  /** Both sides of a V2 pool are worth the same at its price: twice the quote side, in USD at each event's block. */
  addedUsd: number | null;
  removedUsd: number | null;
  /** LP tokens redeemed by Burns as a share of every LP token ever minted. */
  lpRedeemedPct: number | null;
  lastRemovalBlock: number | null;
  lp: {
    burnedPct: number; contractHeldPct: number; walletHeldPct: number; largestHolder: Address | null; largestHolderPct: number;
    /** The largest holder that is no contract (entities/v1): what one wallet can withdraw now. */
    largestWallet: Address | null; largestWalletPct: number;
    /** LP tokens outstanding (raw units), from the replayed balances; '0' when none are indexed. */
    supply: string;
  };
  liquidityUsdNow: number | null;
  /** The first provider took their liquidity back (see RUG_*); a rug when that provider deployed the token. */
  pulled: boolean;
}

export async function poolLiquidity(market: Market, pool: Pool, token: string): Promise<PoolLiquidity> {
  const reader = market.reader;
  const quote = pool.token0 === token ? pool.token1 : pool.token0;
  const quoteIs0 = pool.token0 === quote;
  const quoteDecimals = market.decimals(quote) ?? 18;
  const rows = (await reader.liquidity(0, market.head.block)).filter((r) => r.pair.toLowerCase() === pool.pair);
  let added = 0;
  let removed = 0;
  let addedUsd: number | null = 0;
  let removedUsd: number | null = 0;
  let lastRemoval: number | null = null;
  const quoteLine = await market.timeline(quote, 0);
  for (const r of rows) {
    const amount = Number(formatUnits(BigInt(quoteIs0 ? r.amount0 : r.amount1), quoteDecimals));
    const price = valueAt(quoteLine, rowScore(r.block, r.logIndex));
    const usd = price === null ? null : 2 * amount * price;
    if (r.event === 'mint') {
      added += amount;
      addedUsd = addedUsd === null || usd === null ? null : addedUsd + usd;
    } else {
      removed += amount;
      removedUsd = removedUsd === null || usd === null ? null : removedUsd + usd;
      lastRemoval = r.block;
    }
  }
  // LP minted and redeemed: the pair token's transfers from and to the zero address in the
  // blocks of its Mint and Burn events (the pair mints and burns LP in the same call).
  let lpMinted = 0n;
  let lpRedeemed = 0n;
  for (const block of new Set(rows.map((r) => r.block))) {
    for (const t of await reader.transfers(block, block)) {
      if (t.token.toLowerCase() !== pool.pair) continue;
      if (/^0x0{40}$/.test(t.from)) lpMinted += BigInt(t.value);
      else if (/^0x0{40}$/.test(t.to)) lpRedeemed += BigInt(t.value);
    }
  }
  // The first LP tokens minted to someone other than the zero address went to the provider.
  const firstMint = rows.find((r) => r.event === 'mint');
  const minted = firstMint ? (await reader.transfers(firstMint.block, firstMint.block)).find((t) => t.token.toLowerCase() === pool.pair && /^0x0{40}$/.test(t.from) && !DEAD.has(t.to.toLowerCase())) : undefined;
  const provider = (minted?.to.toLowerCase() as Address | undefined) ?? null;
  const [balances, book] = await Promise.all([reader.balances(pool.pair), entityBook(market)]);
  const holders = Object.entries(balances).map(([h, v]) => [h.toLowerCase(), BigInt(v)] as const).filter(([, v]) => v > 0n);
  const supply = holders.reduce((s, [, v]) => s + v, 0n);
  const share = (v: bigint) => (supply === 0n ? 0 : round((Number(v) / Number(supply)) * 100, 4));
  const burned = holders.filter(([h]) => DEAD.has(h)).reduce((s, [, v]) => s + v, 0n);
  const ranked = holders.filter(([h]) => !DEAD.has(h)).sort((a, b) => (b[1] > a[1] ? 1 : -1));
  // Contracts holding LP: lockers, vaults (the pair itself holds LP only in transit).
  const contractHeld = ranked.filter(([h]) => book.isContract(h)).reduce((s, [, v]) => s + v, 0n);
  // The largest holder that is no contract can withdraw its share at will.
  const largestWallet = ranked.find(([h]) => !book.isContract(h));
  const providerNow = provider ? (holders.find(([h]) => h === provider)?.[1] ?? 0n) : null;
  const providerMinted = minted ? BigInt(minted.value) : null;
  const providerHoldsPct = providerNow !== null && providerMinted ? round((Number(providerNow) / Number(providerMinted)) * 100, 4) : null;
  const removedPct = added > 0 ? round((removed / added) * 100, 4) : null;
  const pulled = providerHoldsPct !== null && providerHoldsPct <= (1 - RUG_PROVIDER_SHARE) * 100 && removedPct !== null && removedPct >= RUG_POOL_SHARE * 100 && provider !== null && !DEAD.has(provider);
  return {
    pool: pool.pair,
    dex: pool.dex,
    quote,
    provider,
    providerMintedLp: providerMinted?.toString() ?? null,
    providerHoldsPct,
    addedQuote: added,
    removedQuote: removed,
    removedPct,
    addedUsd: addedUsd === null ? null : round(addedUsd, 2),
    removedUsd: removedUsd === null ? null : round(removedUsd, 2),
    lpRedeemedPct: lpMinted === 0n ? null : round((Number(lpRedeemed) / Number(lpMinted)) * 100, 4),
    lastRemovalBlock: lastRemoval,
    lp: {
      burnedPct: share(burned),
      contractHeldPct: share(contractHeld),
      walletHeldPct: round(100 - share(burned) - share(contractHeld), 4),
      largestHolder: (ranked[0]?.[0] as Address | undefined) ?? null,
      largestHolderPct: ranked[0] ? share(ranked[0][1]) : 0,
      largestWallet: (largestWallet?.[0] as Address | undefined) ?? null,
      largestWalletPct: largestWallet ? share(largestWallet[1]) : 0,
      supply: supply.toString(),
    },
    liquidityUsdNow: market.liquidityUsd(pool),
    pulled,
  };
}
