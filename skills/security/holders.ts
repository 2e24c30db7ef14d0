/**
 * Who holds a token, for the security verdict: balances replayed from every indexed Transfer of
 * the token (checked against totalSupply at the checkpoint), less the holders whose balance is
 * not anyone's to sell (holderExclusion: pools, burn addresses, the token itself, protocol
 * contracts). The deployer and the wallet its first mint went to are counted, and counted
 * together as insiders: a supply split between the two is one hand.
 */
import { erc20Abi, type Address } from 'viem';
import { EMBEDDED_AIRDROP_FACTORY, EMBEDDED_FIXED_YIELD_FACTORY, EMBEDDED_FLASH_LENDER, EMBEDDED_VAULT_FACTORY, LENDING_MARKETS, MULTICALL3_ADDRESS, V4_POOL_MANAGERS, type EvmChainName } from '../../chain/chains.js';
import { round, type Market } from '../data/market.js';
import type { Origin } from '../data/origins.js';

const BURN = new Set(['0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dead']);

export type Exclusion = 'liquidity_pool' | 'burn_address' | 'token_contract' | 'protocol_contract';

export interface Holding {
  address: string;
  /** Share of the supply outside excluded holders, in %. */
  pct: number;
}

export type Concentration =
  | { available: false; reason: string }
  | {
      available: true;
      holderCount: number;
      /** The largest holders (at most 5), by share of the supply outside excluded holders. */
      top: Holding[];
      /** The deployer and its first mint's recipient together (each counted once), when known. */
      insiders: { addresses: string[]; pct: number } | null;
      /** Excluded holders with their reason and share of the whole supply, in %. */
      excluded: { address: string; reason: Exclusion; supplyPct: number }[];
      /** Share of the whole supply outside excluded holders, in %. */
      circulatingPct: number;
    };

const protocolContracts = new WeakMap<Market, Promise<Set<string>>>();

/**
 * Contracts whose balance belongs to a protocol's users, not to a holder: the chain catalogue's
 * (lending pool, V4 pool manager, flash lender, factories, multicall) and every launchpad venue
 * the index has seen launch a token. Kept behind this one function so one classification of
 * actors can replace it.
 */
function knownProtocolContracts(market: Market): Promise<Set<string>> {
  let found = protocolContracts.get(market);
  if (!found) {
    const chain = market.chain.name as EvmChainName;
    const catalogue = [
      LENDING_MARKETS[chain]?.pool, V4_POOL_MANAGERS[chain], EMBEDDED_FLASH_LENDER, EMBEDDED_VAULT_FACTORY, EMBEDDED_AIRDROP_FACTORY, EMBEDDED_FIXED_YIELD_FACTORY, MULTICALL3_ADDRESS,
    ].filter((a): a is Address => !!a);
    found = market.reader.launchpad(0, market.head.block).then((rows) => new Set([...catalogue, ...rows.map((r) => r.venue)].map((a) => a.toLowerCase())));
    protocolContracts.set(market, found);
    found.catch(() => protocolContracts.delete(market));
  }
  return found;
}

/** Why a holder's balance of `token` is left out of concentration, or null when it counts. */
export async function holderExclusion(market: Market): Promise<(holder: string, token: string) => Exclusion | null> {
  const pools = new Set(market.pools.map((p) => p.pair));
  const protocol = await knownProtocolContracts(market);
  return (holder, token) => {
    const h = holder.toLowerCase();
    return pools.has(h) ? 'liquidity_pool' : BURN.has(h) ? 'burn_address' : h === token.toLowerCase() ? 'token_contract' : protocol.has(h) ? 'protocol_contract' : null;
  };
}

export async function concentration(market: Market, token: string, origin: Origin | null): Promise<Concentration> {
  const t = token.toLowerCase();
  const [balances, excludedBy] = await Promise.all([market.reader.balances(t), holderExclusion(market)]);
  const supply = await market.chain.client.readContract({ address: t as Address, abi: erc20Abi, functionName: 'totalSupply', blockNumber: BigInt(market.head.block) }).catch(() => null);
  if (supply === null) return { available: false, reason: 'totalSupply() did not answer' };
  const all = Object.entries(balances).map(([holder, raw]) => ({ holder: holder.toLowerCase(), raw: BigInt(raw) })).filter((h) => h.raw > 0n);
  const replayed = all.reduce((s, h) => s + h.raw, 0n);
  if (replayed !== supply || supply === 0n) return { available: false, reason: `the index does not hold this token's whole transfer history (replayed ${replayed}, totalSupply ${supply})` };
  const pctOf = (raw: bigint, whole: bigint) => (whole === 0n ? 0 : round(Number((raw * 10_000_000n) / whole) / 100_000, 4));
  const excluded = all.flatMap((h) => {
    const reason = excludedBy(h.holder, t);
    return reason ? [{ address: h.holder, reason, supplyPct: pctOf(h.raw, supply) }] : [];
  });
  const counted = all.filter((h) => !excludedBy(h.holder, t)).sort((a, b) => (b.raw > a.raw ? 1 : b.raw < a.raw ? -1 : 0));
  const circulating = counted.reduce((s, h) => s + h.raw, 0n);
  const insiderAddresses = origin ? [...new Set([origin.deployer.toLowerCase(), origin.firstHolder.toLowerCase()])].filter((a) => !excludedBy(a, t)) : [];
  const insiderRaw = counted.filter((h) => insiderAddresses.includes(h.holder)).reduce((s, h) => s + h.raw, 0n);
  return {
    available: true,
    holderCount: counted.length,
    top: counted.slice(0, 5).map((h) => ({ address: h.holder, pct: pctOf(h.raw, circulating) })),
    insiders: insiderAddresses.length ? { addresses: insiderAddresses, pct: pctOf(insiderRaw, circulating) } : null,
    excluded,
    circulatingPct: pctOf(circulating, supply),
  };
}
