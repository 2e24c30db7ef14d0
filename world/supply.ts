/**
 * Where each genesis token's supply sits at the start of history: a team wallet (not for bridged
 * majors, whose treasury is the bridge's custody), the exchanges' hot wallets and long-term
 * holders with Zipf-like bags; the rest stays with the treasury. Every share is labelled.
 */
import { encodeFunctionData, type Address } from 'viem';
import { DemoToken } from '../chain/artifacts/index.js';
import type { GenesisDeployment } from '../chain/devnet.js';
import type { MarketHost } from './behaviours/behaviour.js';
import { GAS } from './gas.js';

/** How a genesis token's supply is handed out from the treasury. */
const DISTRIBUTION = { team: 0.15, perExchange: 0.08, holders: 0.2 } as const;

export interface SupplyLabels {
  /** Where each genesis token's supply went at the start of history (share of supply; null: the rest). */
  distribution: { token: Address; symbol: string; holder: Address; kind: 'treasury' | 'bridge' | 'team' | 'exchange' | 'holder'; share: number | null }[];
}

export function emptySupplyLabels(): SupplyLabels {
  return { distribution: [] };
}

export function distributeSupply(host: MarketHost, genesis: GenesisDeployment, treasury: Address): void {
  const holders = host.actors('holder');
  const weights = holders.map((_, i) => 1 / (i + 1) ** 1.1);
  const total = weights.reduce((a, b) => a + b, 0);
  for (const token of host.tokens()) {
    // USDC and the wrapped native are minted or wrapped on demand, never handed out from a treasury.
    if (token.kind !== 'genesis' || token === host.usdc || token === host.native) continue;
    const supply = genesis.tokens.get(token.symbol)?.supply;
    if (supply === undefined) continue;
    const bridged = token.asset !== undefined && token.asset !== token.symbol;
    const shares: [Address, 'team' | 'exchange' | 'holder', number][] = [];
    if (!bridged) shares.push([host.actorAddress(`team:${token.symbol}`, 0), 'team', DISTRIBUTION.team]);
    for (const exchange of host.actors('exchange')) shares.push([exchange, 'exchange', DISTRIBUTION.perExchange]);
    holders.forEach((h, i) => shares.push([h, 'holder', (DISTRIBUTION.holders * weights[i]!) / total]));
    for (const [holder, kind, share] of shares) {
      const amount = (supply * BigInt(Math.round(share * 1e9))) / 1_000_000_000n;
      host.queue({ from: treasury, to: token.address, data: encodeFunctionData({ abi: DemoToken.abi, functionName: 'transfer', args: [holder, amount] }), gas: GAS.transfer });
      host.credit(holder, token.address, amount);
      host.labels.distribution.push({ token: token.address, symbol: token.symbol, holder, kind, share: Math.round(share * 1e6) / 1e6 });
    }
    host.labels.distribution.push({ token: token.address, symbol: token.symbol, holder: treasury, kind: bridged ? 'bridge' : 'treasury', share: null });
  }
}
