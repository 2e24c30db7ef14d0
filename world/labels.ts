/**
 * Ground truth written by the simulator: who is what and which blocks hold what. Only the
 * detector evaluation reads it; the analytics never do.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Address } from 'viem';

export interface WorldLabels {
  chain: string;
  seed: string;
  contracts: { routers: Address[]; flashLoanPool?: Address; launchpad?: Address };
  wallets: {
    whales: Address[]; smartMoney: Address[]; snipers: Address[]; sandwichers: Address[]; arbitrageurs: Address[];
    exchanges: Address[]; liquidityProviders: Address[];
    /** Keep pools on the reference price: buyers that only buy, sellers that only sell. */
    crossChainArbitrageurs: Address[];
    /** Long-term holders of the genesis tokens, and the genesis treasury (also the bridges' custody). */
    holders: Address[]; treasuries: Address[];
  };
  /** Where each genesis token's supply went at the start of history (share of supply; null: the rest). */
  distribution: { token: Address; symbol: string; holder: Address; kind: 'treasury' | 'bridge' | 'team' | 'exchange' | 'holder'; share: number | null }[];
  /** Each reference asset's regimes over the history (what its price did, labelled). */
  regimes: { asset: string; label: 'bull' | 'bear' | 'range'; from: number; until: number }[];
  tokens: { token: Address; symbol: string; kind: 'listing' | 'honeypot' | 'taxed' | 'owner-powers' | 'launchpad' | 'genesis'; creator: Address; pair: Address | null; rug: boolean }[];
  snipes: { sniper: Address; token: Address; pair: Address; block: number }[];
  sandwiches: { pool: Address; attacker: Address; victim: Address; victimUsd: number; block: number }[];
  arbitrages: { arber: Address; buyPool: Address; sellPool: Address; block: number }[];
  rugs: { token: Address; pair: Address; creator: Address; block: number }[];
}

export function emptyLabels(chain: string, seed: string): WorldLabels {
  return {
    chain, seed, contracts: { routers: [] },
    wallets: { whales: [], smartMoney: [], snipers: [], sandwichers: [], arbitrageurs: [], exchanges: [], liquidityProviders: [], crossChainArbitrageurs: [], holders: [], treasuries: [] },
    distribution: [], regimes: [], tokens: [], snipes: [], sandwiches: [], arbitrages: [], rugs: [],
  };
}

export async function writeLabels(path: string, labels: readonly WorldLabels[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify({ writtenAt: new Date().toISOString(), chains: labels }, null, 1));
}
