/**
 * The on-chain history behind the boards, read with getLogs up to the block a board reads at:
 * each underlying's feed rounds, and each token's multiplier changes, pauses, blocklistings, mints and burns. Cached per chain and block (a board's second read of the
 * same block costs nothing).
 */
import { getAddress, formatUnits, zeroAddress, type Address, type Log } from 'viem';
import type { ConnectedChain } from '../../chain/runtime.js';
import { readInHalves } from '../../chain/log-ranges.js';
import { UI_MULTIPLIER_ONE } from '../../chain/stocks.js';
import { ANSWER_UPDATED, BLOCKLISTED, PAUSED, RESERVES_ATTESTED, TRANSFER, UI_MULTIPLIER_UPDATED, UNPAUSED, stockTokenAbi } from './abi.js';
import type { StockFeed } from './universe.js';

export interface FeedRound { readonly priceUsd: number; readonly updatedAt: number; readonly block: number }
export interface MultiplierChange { readonly token: Address; readonly from: number; readonly to: number; readonly setAt: number; readonly effectiveAt: number; readonly block: number }
export interface PowerUse { readonly token: Address; readonly kind: 'paused' | 'unpaused' | 'blocklisted' | 'unblocklisted'; readonly account: Address | null; readonly block: number }

const LOG_CACHE_LIMIT = 64;
const cache = new Map<string, Promise<unknown>>();

function once<T>(key: string, read: () => Promise<T>): Promise<T> {
  let hit = cache.get(key) as Promise<T> | undefined;
  if (!hit) {
    if (cache.size >= LOG_CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    hit = read();
    cache.set(key, hit);
    hit.catch(() => cache.delete(key));
  }
  return hit;
}

type AnyEvent = typeof ANSWER_UPDATED | typeof UI_MULTIPLIER_UPDATED | typeof PAUSED | typeof UNPAUSED | typeof BLOCKLISTED | typeof RESERVES_ATTESTED | typeof TRANSFER;

async function logs<E extends AnyEvent>(chain: ConnectedChain, address: readonly Address[], event: E, toBlock: number, args?: Record<string, Address>) {
  if (!address.length) return [];
  return readInHalves((from, to) => chain.client.getLogs({ address: [...address], event, args, fromBlock: BigInt(from), toBlock: BigInt(to), strict: true } as never), 0, toBlock) as Promise<(Log<bigint, number, false, E, true>)[]>;
}

export interface SupplyChanges { readonly count: number; readonly raw: bigint }

/**
 * Each token's mints and burns up to `block` (Transfers from and to the zero address, filtered on
 * the node by topic): what the issuer created and redeemed, without reading any other transfer.
 */
export function supplyChanges(chain: ConnectedChain, tokens: readonly Address[], block: number): Promise<{ minted: Map<string, SupplyChanges>; burnt: Map<string, SupplyChanges> }> {
  return once(`supply:${chain.spec.chainId}:${block}:${tokens.length}`, async () => {
    const [mints, burns] = await Promise.all([logs(chain, tokens, TRANSFER, block, { from: zeroAddress }), logs(chain, tokens, TRANSFER, block, { to: zeroAddress })]);
    const tally = (found: typeof mints) => {
      const out = new Map<string, SupplyChanges>();
      for (const log of found) {
        const token = log.address.toLowerCase();
        const seen = out.get(token) ?? { count: 0, raw: 0n };
        out.set(token, { count: seen.count + 1, raw: seen.raw + log.args.value });
      }
      return out;
    };
    return { minted: tally(mints), burnt: tally(burns) };
  });
}

/** Every round of each feed up to `block`, oldest first, by underlying. */
export function feedRounds(chain: ConnectedChain, feeds: ReadonlyMap<string, StockFeed>, block: number): Promise<Map<string, FeedRound[]>> {
  return once(`feeds:${chain.spec.chainId}:${block}`, async () => {
    const byFeed = new Map([...feeds.values()].map((f) => [f.feed.toLowerCase(), f]));
    const found = await logs(chain, [...feeds.values()].map((f) => f.feed), ANSWER_UPDATED, block);
    const out = new Map<string, FeedRound[]>();
    for (const log of found) {
      const feed = byFeed.get(log.address.toLowerCase());
      if (!feed) continue;
      const rounds = out.get(feed.underlying) ?? [];
      rounds.push({ priceUsd: Number(formatUnits(log.args.current, feed.decimals)), updatedAt: Number(log.args.updatedAt), block: Number(log.blockNumber) });
      out.set(feed.underlying, rounds);
    }
    return out;
  });
}

/** Every multiplier change, pause and blocklisting of `tokens` up to `block`, in block order. */
export function tokenHistory(chain: ConnectedChain, tokens: readonly Address[], block: number): Promise<{ multipliers: MultiplierChange[]; powers: PowerUse[] }> {
  return once(`tokens:${chain.spec.chainId}:${block}:${tokens.length}`, async () => {
    const [changes, paused, unpaused, blocked] = await Promise.all([
      logs(chain, tokens, UI_MULTIPLIER_UPDATED, block), logs(chain, tokens, PAUSED, block), logs(chain, tokens, UNPAUSED, block), logs(chain, tokens, BLOCKLISTED, block),
    ]);
    const multipliers = changes.map((l) => ({
      token: getAddress(l.address), from: Number(l.args.oldMultiplier) / Number(UI_MULTIPLIER_ONE), to: Number(l.args.newMultiplier) / Number(UI_MULTIPLIER_ONE),
      setAt: Number(l.args.setAt), effectiveAt: Number(l.args.effectiveAt), block: Number(l.blockNumber),
    }));
    const powers: PowerUse[] = [
      ...paused.map((l) => ({ token: getAddress(l.address), kind: 'paused' as const, account: null, block: Number(l.blockNumber) })),
      ...unpaused.map((l) => ({ token: getAddress(l.address), kind: 'unpaused' as const, account: null, block: Number(l.blockNumber) })),
      ...blocked.map((l) => ({ token: getAddress(l.address), kind: l.args.blocked ? 'blocklisted' as const : 'unblocklisted' as const, account: getAddress(l.args.account), block: Number(l.blockNumber) })),
    ].sort((a, b) => a.block - b.block);
    return { multipliers, powers };
  });
}

/**
 * The shares each token's supply stood for at its issuer's latest attestation (read at the
 * attestation's block): what the attested reserves must cover, since later creations are attested next.
 */
export function suppliesAtAttestation(chain: ConnectedChain, issuers: readonly Address[], block: number): Promise<Map<string, { block: number; supplyShares: number }>> {
  return once(`attest:${chain.spec.chainId}:${block}:${issuers.join()}`, async () => {
    const latest = new Map<string, number>();
    for (const log of await logs(chain, issuers, RESERVES_ATTESTED, block)) latest.set(log.args.token.toLowerCase(), Number(log.blockNumber));
    const out = new Map<string, { block: number; supplyShares: number }>();
    await Promise.all([...latest].map(async ([token, at]) => {
      const read = (functionName: 'totalSupply' | 'uiMultiplier' | 'decimals') => chain.client.readContract({ address: token as Address, abi: stockTokenAbi, functionName, blockNumber: BigInt(at) });
      const [supply, multiplier, decimals] = await Promise.all([read('totalSupply'), read('uiMultiplier'), read('decimals')]);
      out.set(token, { block: at, supplyShares: Number(formatUnits(supply as bigint, Number(decimals))) * (Number(multiplier) / Number(UI_MULTIPLIER_ONE)) });
    }));
    return out;
  });
}

/** The feed's price in effect at `time` (its last round at or before), or null before its first. */
export function priceAt(rounds: readonly FeedRound[], time: number): number | null {
  let lo = 0;
  let hi = rounds.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rounds[mid]!.updatedAt <= time) lo = mid + 1;
    else hi = mid;
  }
  return lo ? rounds[lo - 1]!.priceUsd : null;
}
