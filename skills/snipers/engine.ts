/**
 * Sniper detection, methodology `snipers/v1`: for each pool of the token, the block its first
 * liquidity arrived; every purchase of the token from that pool within `blocks` blocks and
 * `seconds` seconds of it is a snipe. Buyers are transaction senders (never routers or the
 * liquidity provider itself), and a multi-hop route that ends holding the token is one buy
 * (skills/data/trades.ts). For each sniper: what it bought, what it still holds (indexed
 * balance) and what it has sold since (its transfers into the token's pools).
 */
import { formatUnits, type Address, type Hash } from 'viem';
import { txSenders } from '../data/senders.js';
import { assembleTrades } from '../data/trades.js';
import type { ConnectedChain } from '../../chain/runtime.js';
import type { Row } from '../../indexer/rows.js';
import type { Market } from '../data/market.js';

export interface SniperWindow {
  readonly blocks: number;
  readonly seconds: number;
}

export const DEFAULT_SNIPER_WINDOW: SniperWindow = { blocks: 2, seconds: 60 };

export const sniperMethodology = (w: SniperWindow) =>
  `snipers/v1 (buys within ${w.blocks} blocks and ${w.seconds} s of a pool's first liquidity; buyers are transaction senders, never the liquidity provider; holdings from indexed balances; sells are transfers into the token's pools)`;

export interface Sniper {
  wallet: Address;
  pool: string;
  firstBuyBlock: number;
  blocksAfterLiquidity: number;
  secondsAfterLiquidity: number;
  bought: number;
  holdsNow: number;
  soldSince: number;
  buyTxs: Hash[];
}

export interface SniperReport {
  pools: { pool: string; liquidityBlock: number; liquidityAt: string; liquidityProvider: Address | null }[];
  snipers: Sniper[];
}

export async function detectSnipers(chain: ConnectedChain, market: Market, token: string, window: SniperWindow = DEFAULT_SNIPER_WINDOW): Promise<SniperReport> {
  const reader = market.reader;
  const t = token.toLowerCase();
  const decimals = market.decimals(t) ?? 18;
  const pools = market.pools.filter((p) => p.token0 === t || p.token1 === t);
  const poolSet = new Set(pools.map((p) => p.pair));
  const head = market.head.block;
  const liquidity = (await reader.liquidity(0, head)).filter((r) => r.event === 'mint' && poolSet.has(r.pair.toLowerCase()));
  const firstMint = new Map<string, Row<'mint'>>();
  for (const m of liquidity as Row<'mint'>[]) if (!firstMint.has(m.pair.toLowerCase())) firstMint.set(m.pair.toLowerCase(), m);

  const senders = new Map<Hash, Address>();
  const senderOf = async (rows: readonly { tx: Hash; block: number }[]) => {
    for (const [tx, from] of await txSenders(chain, rows)) senders.set(tx, from);
  };

  const reportPools: SniperReport['pools'] = [];
  const byWallet = new Map<string, Sniper>();
  for (const pool of pools) {
    const mint = firstMint.get(pool.pair);
    if (!mint) continue;
    // Trades (trades/v1) that took the token out of this pool and ended holding it: a route through
    // other pools is one buy of its sender; a route that sold the token on elsewhere bought nothing.
    const trades = (await assembleTrades(chain, await reader.swaps(mint.block, mint.block + window.blocks), market.pools))
      .filter((tr) => tr.tokenOut === t && tr.hops.some((h) => h.pool === pool.pair && h.tokenOut === t && h.swap.ts - mint.ts <= window.seconds));
    await senderOf([mint]);
    const provider = senders.get(mint.tx) ?? null;
    reportPools.push({ pool: pool.pair, liquidityBlock: mint.block, liquidityAt: new Date(mint.ts * 1000).toISOString(), liquidityProvider: provider });
    for (const trade of trades) {
      const s = trade.hops.find((h) => h.pool === pool.pair && h.tokenOut === t)!.swap;
      if (s.block === mint.block && s.logIndex < mint.logIndex) continue; // before the liquidity, not a snipe
      const out = trade.amountOut;
      const wallet = trade.sender;
      if (!wallet || wallet === provider) continue;
      const entry = byWallet.get(wallet) ?? {
        wallet, pool: pool.pair, firstBuyBlock: s.block, blocksAfterLiquidity: s.block - mint.block, secondsAfterLiquidity: s.ts - mint.ts,
        bought: 0, holdsNow: 0, soldSince: 0, buyTxs: [],
      };
      entry.bought += Number(formatUnits(out, decimals));
      entry.buyTxs.push(s.tx);
      byWallet.set(wallet, entry);
    }
  }

  if (byWallet.size) {
    const first = Math.min(...[...byWallet.values()].map((s) => s.firstBuyBlock));
    const transfers = (await reader.transfers(first, head)).filter((tr) => tr.token.toLowerCase() === t && poolSet.has(tr.to.toLowerCase()));
    for (const sniper of byWallet.values()) {
      sniper.holdsNow = Number(formatUnits(await reader.balance(t, sniper.wallet), decimals));
      sniper.soldSince = transfers
        .filter((tr) => tr.from.toLowerCase() === sniper.wallet && tr.block >= sniper.firstBuyBlock)
        .reduce((sum, tr) => sum + Number(formatUnits(BigInt(tr.value), decimals)), 0);
    }
  }
  return { pools: reportPools, snipers: [...byWallet.values()].sort((a, b) => b.bought - a.bought) };
}
