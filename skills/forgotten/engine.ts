/**
 * Forgotten assets of a wallet on one chain (`forgotten/v1`), from its indexed holdings: LP tokens
 * of pools whose liquidity is gone (what the share would still redeem, each side valued), shares
 * of ERC-4626 vaults that are deprecated or closed to deposits (what they redeem, valued), tokens
 * with no pool left to sell them in (flagged: no price, value unknown), and dust (priced holdings
 * under a dollar). A live LP position, a live vault's shares or a liquid holding is not forgotten.
 */
import { erc20Abi, erc4626Abi, formatUnits, parseUnits, type Address } from 'viem';
import type { Checkpoint } from '../../indexer/reader.js';
import { walletHoldings } from '../holdings/engine.js';
import { round, type Market } from '../data/market.js';
import { readVaultHead } from '../vaults/engine.js';

/** A pool with less than this much USD liquidity is dead: a position in it cannot be exited at a price. */
export const DEAD_POOL_USD = 1_000;
/** A priced holding worth less than this is dust. */
export const DUST_USD = 1;
export const FORGOTTEN_METHODOLOGY = `forgotten/v1 (indexed holdings: LP tokens of pools under $${DEAD_POOL_USD.toLocaleString('en-US')} liquidity valued at their share of reserves; tokens no pool prices flagged; priced holdings under $${DUST_USD} as dust; shares of ERC-4626 vaults that say they are deprecated or take no deposits (maxDeposit 0), valued at convertToAssets at the underlying's price, live vaults' shares left out)`;

export type ForgottenItem =
  | { kind: 'dead-lp'; token: Address; symbol: string | null; balance: string; sharePct: number; pool: { token0: string | null; token1: string | null; liquidityUsd: number | null }; redeemable: { token0: string; token1: string }; valueUsd: number | null }
  | { kind: 'no-liquidity'; token: Address; symbol: string | null; balance: string; valueUsd: null; reason: string }
  | { kind: 'dust'; token: Address; symbol: string | null; balance: string; valueUsd: number }
  | { kind: 'deprecated-vault'; token: Address; symbol: string | null; balance: string; vault: { name: string | null; deprecated: boolean; depositsOpen: boolean }; asset: { address: Address; symbol: string | null }; redeemable: string; valueUsd: number | null; reason: string };

export async function forgottenAssets(market: Market, checkpoint: Checkpoint, wallet: Address): Promise<{ items: ForgottenItem[]; holdingsRead: number; valueUsd: number }> {
  const { holdings } = await walletHoldings(market, checkpoint, wallet);
  const pools = new Map(market.pools.map((p) => [p.pair, p]));
  const items: ForgottenItem[] = [];
  let vault: Awaited<ReturnType<typeof readVaultHead>>;
  for (const h of holdings) {
    const pool = pools.get(h.token.toLowerCase());
    if (pool) {
      const liquidityUsd = market.liquidityUsd(pool);
      if (liquidityUsd !== null && liquidityUsd >= DEAD_POOL_USD) continue; // a live position
      const supply = await market.chain.client.readContract({ address: h.token, abi: erc20Abi, functionName: 'totalSupply', blockNumber: BigInt(checkpoint.block) });
      const raw = parseUnits(h.balance, h.decimals);
      const share = supply === 0n ? 0 : Number((raw * 1_000_000n) / supply) / 1_000_000;
      const [d0, d1] = [market.decimals(pool.token0) ?? 18, market.decimals(pool.token1) ?? 18];
      const amount0 = Number(formatUnits(pool.r0, d0)) * share;
      const amount1 = Number(formatUnits(pool.r1, d1)) * share;
      const [p0, p1] = [market.priceNow(pool.token0)?.usd, market.priceNow(pool.token1)?.usd];
      items.push({
        kind: 'dead-lp', token: h.token, symbol: h.symbol, balance: h.balance, sharePct: round(share * 100, 4),
        pool: { token0: market.tokens.get(pool.token0)?.symbol ?? null, token1: market.tokens.get(pool.token1)?.symbol ?? null, liquidityUsd: liquidityUsd === null ? null : round(liquidityUsd, 2) },
        redeemable: { token0: String(round(amount0, 8)), token1: String(round(amount1, 8)) },
        // Each side at its own price; a side without one leaves the value unknown.
        valueUsd: p0 === undefined || p1 === undefined ? null : round(amount0 * p0 + amount1 * p1, 2),
      });
    } else if (h.valueUsd === null && (vault = await readVaultHead(market.chain, h.token, BigInt(checkpoint.block)))) {
      if (vault.depositsOpen && !vault.deprecated) continue; // a live vault position
      const shares = parseUnits(h.balance, h.decimals);
      const assets = await market.chain.client.readContract({ address: h.token, abi: erc4626Abi, functionName: 'convertToAssets', args: [shares], blockNumber: BigInt(checkpoint.block) });
      const redeemable = formatUnits(assets, vault.assetDecimals);
      const price = market.priceNow(vault.asset)?.usd;
      items.push({
        kind: 'deprecated-vault', token: h.token, symbol: h.symbol, balance: h.balance,
        vault: { name: vault.name, deprecated: vault.deprecated === true, depositsOpen: vault.depositsOpen }, asset: { address: vault.asset, symbol: vault.assetSymbol },
        redeemable, valueUsd: price === undefined ? null : round(Number(redeemable) * price, 2),
        reason: vault.deprecated ? 'the vault is deprecated: its strategy no longer pays income' : 'the vault takes no deposits (maxDeposit 0)',
      });
    } else if (h.valueUsd === null) {
      items.push({ kind: 'no-liquidity', token: h.token, symbol: h.symbol, balance: h.balance, valueUsd: null, reason: h.unpricedReason ?? 'no pool prices it' });
    } else if (h.valueUsd < DUST_USD) {
      items.push({ kind: 'dust', token: h.token, symbol: h.symbol, balance: h.balance, valueUsd: h.valueUsd });
    }
  }
  return { items, holdingsRead: holdings.length, valueUsd: round(items.reduce((sum, i) => sum + (i.valueUsd ?? 0), 0), 2) };
}
