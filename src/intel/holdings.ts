/**
 * A wallet's ERC-20 holdings, methodology `wallet-holdings/v1`: candidate tokens are those the
 * wallet received (Transfer logs with the wallet as recipient, within the lookback) plus the
 * chain's USDC and wrapped native; balances are read with balanceOf at one head block and
 * valued with `pricing/v1`. Zero balances are dropped; unpriced tokens are listed with a reason.
 */
import { formatUnits, getAddress, type Address } from 'viem';
import type { ConnectedChain } from '../chain/runtime.js';
import { erc20ReadAbi, transferEvent } from './abis.js';
import { scanLogsBackwards, type LogBounds } from './logs.js';
import { PRICING_METHODOLOGY, usdPrices, type UsdPrice } from './pricing.js';
import { provenance, type Provenance } from './provenance.js';
import { tokenInfos } from './tokens.js';

export const HOLDINGS_METHODOLOGY = `wallet-holdings/v1 (tokens received per Transfer logs in the block range, plus USDC and the wrapped native; balanceOf at asOf block; USD via ${PRICING_METHODOLOGY})`;

export interface HoldingRow {
  token: Address;
  symbol: string | null;
  name: string | null;
  decimals: number;
  balance: string;
  priceUsd: number | null;
  valueUsd: number | null;
  priceSource: UsdPrice['via'] | null;
  unpricedReason?: string;
}

export interface Holdings extends Provenance {
  wallet: Address;
  native: { symbol: string; balance: string; priceUsd: number | null; valueUsd: number | null };
  holdings: HoldingRow[];
  totalUsd: number;
  unpricedCount: number;
}

export async function walletHoldings(chain: ConnectedChain, wallet: Address, bounds: LogBounds): Promise<Holdings> {
  const head = await chain.client.getBlock();
  const candidates = new Set<Address>([getAddress(chain.spec.usdc), getAddress(chain.spec.wrappedNative)]);
  const from = await scanLogsBackwards(chain, { event: transferEvent, args: { to: wallet } }, head.number, bounds, (logs) => {
    for (const log of logs) candidates.add(getAddress(log.address));
    return false;
  });
  const tokens = [...candidates];

  const [balances, nativeBalance, infos] = await Promise.all([
    chain.client.multicall({
      contracts: tokens.map((address) => ({ address, abi: erc20ReadAbi, functionName: 'balanceOf', args: [wallet] }) as const),
      allowFailure: true,
      blockNumber: head.number,
    }),
    chain.client.getBalance({ address: wallet, blockNumber: head.number }),
    tokenInfos(chain, tokens),
  ]);
  const held = tokens
    .map((token, i) => ({ token, raw: balances[i]?.status === 'success' ? (balances[i]!.result as bigint) : 0n }))
    .filter((h) => h.raw > 0n && infos.get(h.token)?.decimals != null);
  const prices = await usdPrices(chain, [...held.map((h) => h.token), chain.spec.wrappedNative], head.number);

  const holdings = held.map(({ token, raw }): HoldingRow => {
    const info = infos.get(token)!;
    const amount = formatUnits(raw, info.decimals!);
    const price = prices.get(token.toLowerCase() as Address);
    return {
      token, symbol: info.symbol, name: info.name, decimals: info.decimals!,
      balance: amount,
      priceUsd: price?.usd ?? null,
      valueUsd: price ? round2(Number(amount) * price.usd) : null,
      priceSource: price?.via ?? null,
      ...(!price && { unpricedReason: 'no_price_route' }),
    };
  });
  holdings.sort((a, b) => (b.valueUsd ?? -1) - (a.valueUsd ?? -1));

  const nativePrice = prices.get(chain.spec.wrappedNative.toLowerCase() as Address)?.usd ?? null;
  const nativeAmount = formatUnits(nativeBalance, 18);
  const native = {
    symbol: chain.spec.nativeSymbol,
    balance: nativeAmount,
    priceUsd: nativePrice,
    valueUsd: nativePrice === null ? null : round2(Number(nativeAmount) * nativePrice),
  };
  const totalUsd = round2(holdings.reduce((sum, h) => sum + (h.valueUsd ?? 0), 0) + (native.valueUsd ?? 0));

  return {
    ...provenance(chain, head, HOLDINGS_METHODOLOGY, { from, to: head.number }),
    wallet,
    native,
    holdings,
    totalUsd,
    unpricedCount: holdings.filter((h) => h.valueUsd === null).length,
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
