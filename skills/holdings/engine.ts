/**
 * A wallet's ERC-20 holdings, methodology `wallet-holdings/v2`: balances replayed from every
 * indexed Transfer log (the index keeps them per holder), valued at `market/v1` prices at the
 * index checkpoint; the native balance, which no log records, is read at that same block.
 * Spent tokens are dropped; unpriced ones are listed with a reason, never guessed.
 */
import { formatUnits, getAddress, type Address } from 'viem';
import type { Checkpoint } from '../../indexer/reader.js';
import { MARKET_METHODOLOGY, round, type Market } from '../data/market.js';
import { tokenInfos } from '../data/tokens.js';

export const HOLDINGS_METHODOLOGY = `wallet-holdings/v2 (balances replayed from indexed Transfer logs; USD via ${MARKET_METHODOLOGY}; native balance read at asOf block)`;

export interface HoldingRow {
  token: Address;
  symbol: string | null;
  name: string | null;
  decimals: number;
  balance: string;
  priceUsd: number | null;
  valueUsd: number | null;
  pricedBy: string | null;
  unpricedReason?: string;
}

export async function walletHoldings(market: Market, checkpoint: Checkpoint, wallet: Address) {
  const chain = market.chain;
  const [held, nativeBalance] = await Promise.all([
    market.reader.holdings(wallet),
    chain.client.getBalance({ address: wallet, blockNumber: BigInt(checkpoint.block) }),
  ]);
  const positive = Object.entries(held).filter(([, raw]) => BigInt(raw) > 0n).map(([token, raw]) => [getAddress(token), raw] as const);
  const infos = await tokenInfos(chain, positive.map(([token]) => token));
  const holdings: HoldingRow[] = [];
  for (const [token, raw] of positive) {
    const info = infos.get(token);
    if (info?.decimals == null) continue; // not an ERC-20 we can read
    const balance = formatUnits(BigInt(raw), info.decimals);
    const price = market.priceNow(token);
    holdings.push({
      token, symbol: info.symbol, name: info.name, decimals: info.decimals,
      balance,
      priceUsd: price?.usd ?? null,
      valueUsd: price ? round(Number(balance) * price.usd, 2) : null,
      // The pool that priced it, or `peg` for the USD stablecoin the market is quoted in.
      pricedBy: price ? (price.pool?.pair ?? 'peg') : null,
      ...(!price && { unpricedReason: 'no pool with enough liquidity prices this token' }),
    });
  }
  holdings.sort((a, b) => (b.valueUsd ?? -1) - (a.valueUsd ?? -1));
  const nativePrice = market.priceNow(chain.spec.wrappedNative)?.usd ?? null;
  const nativeAmount = formatUnits(nativeBalance, 18);
  const native = {
    symbol: chain.spec.nativeSymbol,
    balance: nativeAmount,
    priceUsd: nativePrice,
    valueUsd: nativePrice === null ? null : round(Number(nativeAmount) * nativePrice, 2),
  };
  return {
    wallet,
    native,
    holdings,
    totalUsd: round(holdings.reduce((sum, h) => sum + (h.valueUsd ?? 0), 0) + (native.valueUsd ?? 0), 2),
    unpricedCount: holdings.filter((h) => h.valueUsd === null).length,
  };
}
