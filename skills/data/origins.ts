/**
 * Who deployed a token and what else they deployed: a token's deployer is the sender of the
 * transaction that first minted it (its first Transfer from the zero address in the index),
 * or the creator named by a launchpad's TokenLaunched event. Built once per index checkpoint.
 */
import type { Address, Hash } from 'viem';
import type { Market } from './market.js';
import { txSenders } from './senders.js';

export interface Origin {
  token: string;
  deployer: Address;
  /** Who received the first mint: the deployer itself, or a treasury or venue the supply starts with. */
  firstHolder: Address;
  via: 'first-mint' | 'launchpad';
  block: number;
  tx: Hash;
}

const built = new WeakMap<Market, Promise<Map<string, Origin>>>();

export function origins(market: Market): Promise<Map<string, Origin>> {
  let done = built.get(market);
  if (!done) {
    built.set(market, (done = buildOrigins(market)));
    done.catch(() => built.delete(market));
  }
  return done;
}

async function buildOrigins(market: Market): Promise<Map<string, Origin>> {
  const [transfers, launchpad] = await Promise.all([market.reader.transfers(0, market.head.block), market.reader.launchpad(0, market.head.block)]);
  // A pair's LP token is first minted by whoever adds liquidity first; the factory deployed it.
  const pairs = new Set(market.pools.map((p) => p.pair.toLowerCase()));
  const firstMints = new Map<string, { tx: Hash; block: number; to: Address }>();
  for (const t of transfers) {
    const token = t.token.toLowerCase();
    if (/^0x0{40}$/.test(t.from) && !pairs.has(token) && !firstMints.has(token)) firstMints.set(token, { tx: t.tx, block: t.block, to: t.to.toLowerCase() as Address });
  }
  const senders = await txSenders(market.chain, [...firstMints.values()]);
  const out = new Map<string, Origin>();
  for (const [token, m] of firstMints) {
    const deployer = senders.get(m.tx);
    if (deployer) out.set(token, { token, deployer, firstHolder: m.to, via: 'first-mint', block: m.block, tx: m.tx });
  }
  // A launchpad mints to itself; the creator it names is the deployer that matters.
  for (const r of launchpad) {
    if (r.event === 'tokenLaunched') out.set(r.token.toLowerCase(), { token: r.token.toLowerCase(), deployer: r.creator.toLowerCase() as Address, firstHolder: r.venue.toLowerCase() as Address, via: 'launchpad', block: r.block, tx: r.tx });
  }
  return out;
}
