/**
 * Buy-then-sell simulation with eth_call: the SecurityProbe contract's code is placed at a
 * fresh random address (state override) holding a little native coin, and called from another
 * random address; it buys the token straight through its V2 pairs from the wrapped native and
 * sells it back, reporting what every transfer really delivered. Nothing is sent on chain.
 */
import { BaseError, ContractFunctionRevertedError, ExecutionRevertedError, HttpRequestError, TimeoutError, bytesToHex, decodeFunctionResult, encodeFunctionData, formatEther, getAddress, parseEther, type Address, type Hex } from 'viem';
import { randomBytes } from 'node:crypto';
import { SecurityProbe } from '../../chain/artifacts/index.js';
import { SibylError } from '../core/errors.js';
import type { Market } from '../data/market.js';

/** The probe buys about this many USD of the token: small enough not to move a listed pool. */
export const PROBE_USD = 50;
/** A sell that delivers less than this share to the pair, or returns nothing, is a trap. */
export const HONEYPOT_SELL_TAX_PCT = 90;

export type Simulation =
  | { available: false; reason: string }
  | {
      available: true;
      caller: Address;
      path: string[];
      spentNative: string;
      buyReverted: boolean;
      buyTaxPct: number | null;
      sellReverted: boolean;
      sellTaxPct: number | null;
      roundTripLossPct: number | null;
      honeypot: boolean;
      /** The token's own paused() said true where the trade reverted: held by its owner's pause, not a trap. */
      paused: boolean;
      reason?: string;
    };

/** A fresh address for the probe's state override: random bytes, not a derived key (no curve math per scan). */
const randomAddress = () => getAddress(bytesToHex(randomBytes(20)));

/** Hops from the wrapped native to `token` (at most three), each along the hop's main pool. */
function route(market: Market, token: string): { path: string[]; pairs: string[] } | null {
  const native = market.chain.spec.wrappedNative.toLowerCase();
  const tokens = [token.toLowerCase()];
  const pairs: string[] = [];
  while (tokens[0] !== native) {
    if (pairs.length === 3) return null;
    const hop = nextHop(market, tokens[0]!, tokens);
    if (!hop) return null;
    pairs.unshift(hop.pair);
    tokens.unshift(hop.quote);
  }
  return pairs.length ? { path: tokens, pairs } : null;
}

/**
 * The pool one hop nearer the wrapped native. A quote's main pool can lead back along the path
 * (USDC's deepest pool may be the probed token's own): then the quote's deepest pool with the
 * wrapped native or USDC, never one through a token already on the path.
 */
function nextHop(market: Market, from: string, onPath: readonly string[]): { pair: string; quote: string } | null {
  const main = market.mainPool(from);
  if (main && !onPath.includes(main.quote)) return { pair: main.pool.pair, quote: main.quote };
  const anchors = [market.chain.spec.wrappedNative.toLowerCase(), market.chain.spec.usdc.toLowerCase()];
  let best: { pair: string; quote: string; rank: [number, number] } | null = null;
  for (const pool of market.pools) {
    if (pool.token0 !== from && pool.token1 !== from) continue;
    const quote = pool.token0 === from ? pool.token1 : pool.token0;
    if (!anchors.includes(quote) || onPath.includes(quote)) continue;
    const rank: [number, number] = [anchors.indexOf(quote), -(market.liquidityUsd(pool) ?? 0)];
    if (!best || rank[0] < best.rank[0] || (rank[0] === best.rank[0] && rank[1] < best.rank[1])) best = { pair: pool.pair, quote, rank };
  }
  return best && { pair: best.pair, quote: best.quote };
}

export async function simulateTrade(market: Market, token: string, blockNumber: bigint): Promise<Simulation> {
  if (token.toLowerCase() === market.chain.spec.wrappedNative.toLowerCase()) return { available: false, reason: 'the wrapped native is what the probe pays with; it is not simulated' };
  const hops = route(market, token);
  if (!hops) return { available: false, reason: 'no priced pool route from the wrapped native to this token' };
  const nativeUsd = market.priceNow(market.chain.spec.wrappedNative)?.usd;
  if (!nativeUsd) return { available: false, reason: 'the wrapped native has no USD price' };
  const nativeIn = parseEther((PROBE_USD / nativeUsd).toFixed(18));
  const probe = randomAddress();
  const caller = randomAddress();
  const data = encodeFunctionData({ abi: SecurityProbe.abi, functionName: 'probe', args: [market.chain.spec.wrappedNative, hops.path as Address[], hops.pairs as Address[], nativeIn] });
  let raw: Hex | undefined;
  try {
    const result = await market.chain.client.call({
      account: caller, to: probe, data, blockNumber, gas: 5_000_000n,
      stateOverride: [{ address: probe, code: SecurityProbe.deployedBytecode as Hex, balance: nativeIn }],
    });
    raw = result.data;
  } catch (err) {
    // A node that did not run the call says nothing about the token: fail uncharged, never a verdict.
    if (unreachable(err)) throw new SibylError('upstream_unavailable', `${market.chain.name} did not answer the buy-and-sell simulation; nothing was charged`);
    // The node ran the call and the buy itself reverted: the token cannot be bought through its pools.
    const paused = await pausedAt(market, token, blockNumber);
    return {
      available: true, caller, path: hops.path, spentNative: formatEther(nativeIn), buyReverted: true, buyTaxPct: null,
      sellReverted: false, sellTaxPct: null, roundTripLossPct: null, honeypot: !paused, paused,
      reason: paused ? PAUSED_REASON : `buy reverted: ${(err as Error).message.split('\n')[0]}`,
    };
  }
  if (!raw) return { available: false, reason: 'the simulation returned no data' };
  const r = decodeFunctionResult({ abi: SecurityProbe.abi, functionName: 'probe', data: raw }) as {
    buyExpected: bigint; buyReceived: bigint; sellSent: bigint; sellArrived: bigint; sellExpected: bigint; sellReceived: bigint; sellReverted: boolean;
  };
  const pct = (part: bigint, whole: bigint) => (whole === 0n ? null : Math.round((1 - Number(part) / Number(whole)) * 10_000) / 100);
  const buyTaxPct = pct(r.buyReceived, r.buyExpected);
  const sellTaxPct = r.sellReverted ? null : pct(r.sellArrived, r.sellSent);
  // What came back against what a tax-free round trip through the same pools would return.
  const roundTripLossPct = r.sellReverted ? 100 : pct(r.sellReceived, r.sellExpected === 0n ? 0n : (r.sellExpected * r.sellSent) / (r.sellArrived || 1n));
  const trapped = r.sellReverted || r.sellReceived === 0n || (sellTaxPct !== null && sellTaxPct >= HONEYPOT_SELL_TAX_PCT);
  const paused = r.sellReverted && (await pausedAt(market, token, blockNumber));
  return {
    available: true, caller, path: hops.path, spentNative: formatEther(nativeIn), buyReverted: false,
    buyTaxPct, sellReverted: r.sellReverted, sellTaxPct, roundTripLossPct, honeypot: trapped && !paused, paused,
    ...(r.sellReverted && { reason: paused ? PAUSED_REASON : 'the sell reverted' }),
  };
}

const PAUSED_REASON = "the token's paused() is true: its owner has halted transfers";
const pausedAbi = [{ type: 'function', name: 'paused', stateMutability: 'view', inputs: [], outputs: [{ type: 'bool' }] }] as const;

/**
 * Whether the token says it is paused at `blockNumber`: a revert under an owner's pause (a regulated
 * issuer halting around a corporate action) is not a trap set for buyers. A token without paused() is not.
 */
async function pausedAt(market: Market, token: string, blockNumber: bigint): Promise<boolean> {
  try {
    return await market.chain.client.readContract({ address: token as Address, abi: pausedAbi, functionName: 'paused', blockNumber });
  } catch (err) {
    // The node not answering is no verdict; any other failure (no such function) is not a pause.
    if (err instanceof BaseError && err.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError)) {
      throw new SibylError('upstream_unavailable', `${market.chain.name} did not answer the token's paused(); nothing was charged`);
    }
    return false;
  }
}

/**
 * No verdict unless the EVM ran the call and it reverted: a transport failure, a timeout or a
 * node refusing the request itself (e.g. one without state overrides) says nothing of the token.
 */
export function unreachable(err: unknown): boolean {
  if (!(err instanceof BaseError)) return true;
  const reverted = err.walk((e) => e instanceof ExecutionRevertedError || e instanceof ContractFunctionRevertedError) !== null;
  return !reverted || err.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError) !== null;
}
