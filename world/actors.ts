/**
 * The market's cast: every role's actors, derived from the seed (so a resumed world finds the
 * same ones), funded at the start of history and labelled by role.
 */
import { encodeFunctionData, keccak256, parseEther, parseUnits, toHex, type Address } from 'viem';
import { EmbeddedUSDC, WrappedNative } from '../chain/artifacts/index.js';
import type { EvmChainName } from '../chain/chains.js';
import type { MarketHost } from './behaviours/behaviour.js';
import { GAS } from './gas.js';

/** `accumulator` and `distributor` are the crowd behind value flow: one only buys, the other only sells what it holds. */
export type Role = 'retail' | 'whale' | 'smart' | 'sniper' | 'sandwicher' | 'arber' | 'lp' | 'exchange' | 'creator' | 'accumulator' | 'distributor' | 'holder' | 'team';

/** How many actors each role has on a chain (unless the world sizes a chain's cast itself); actors are funded in this order. */
export const ACTOR_COUNTS: Readonly<Record<Role, number>> = { retail: 30, whale: 4, smart: 3, sniper: 3, sandwicher: 2, arber: 2, lp: 3, exchange: 2, creator: 0, accumulator: 24, distributor: 24, holder: 40, team: 0 };

/** What each actor of a role starts with, in USD (half USDC, half wrapped native); 0: gas only. */
const FUNDING_USD: Record<Role, number> = { retail: 20_000, whale: 3_000_000, smart: 600_000, sniper: 200_000, sandwicher: 500_000, arber: 500_000, lp: 1_000_000, exchange: 5_000_000, creator: 0, accumulator: 400_000, distributor: 0, holder: 0, team: 0 };

export interface CastLabels {
  wallets: {
    whales: Address[]; smartMoney: Address[]; snipers: Address[]; sandwichers: Address[]; arbitrageurs: Address[];
    exchanges: Address[]; liquidityProviders: Address[];
    /** Keep pools on the reference price: buyers that only buy, sellers that only sell. */
    crossChainArbitrageurs: Address[];
    /**
     * Long-term holders of the genesis tokens; the treasuries: the genesis treasury where the chain
     * has a genesis supply for it to hand out (also the bridges' custody), and an account a module
     * mints a token's first supply to for handing out (the stocks module's market maker).
     */
    holders: Address[]; treasuries: Address[];
    /** The small traders of the crowd, and the world's deployer (it deploys the contracts and mints USDC). */
    retail: Address[]; issuers: Address[];
  };
}

export function emptyCastLabels(): CastLabels {
  return { wallets: { whales: [], smartMoney: [], snipers: [], sandwichers: [], arbitrageurs: [], exchanges: [], liquidityProviders: [], crossChainArbitrageurs: [], holders: [], treasuries: [], retail: [], issuers: [] } };
}

/** An actor's address, from the seed: the same in every build and resume of the world. */
export function actorAddress(seed: string, chain: EvmChainName, role: string, i: number): Address {
  return `0x${keccak256(toHex(`${seed}:${chain}:${role}:${i}`)).slice(26)}` as Address;
}

/** Every role's actors on one chain: `counts`' roles only (a role left out has no actors there). */
export function castOf(seed: string, chain: EvmChainName, counts: Readonly<Partial<Record<Role, number>>> = ACTOR_COUNTS): Map<Role, Address[]> {
  const cast = new Map<Role, Address[]>();
  for (const [role, n] of Object.entries(counts) as [Role, number][]) {
    cast.set(role, Array.from({ length: n }, (_, i) => actorAddress(seed, chain, role, i)));
  }
  return cast;
}

/**
 * Who is who: every one of the cast's wallets by role, the treasury and the deployer (every sender has
 * a label). The genesis treasury is a treasury only where it holds a supply to hand out: a chain whose
 * genesis is USDC and the wrapped native alone (minted and wrapped on demand) gives it none.
 */
export function labelCast(host: MarketHost, treasury: Address): void {
  const of = (role: Role) => [...host.actors(role)];
  const supplied = host.tokens().some((t) => t.kind === 'genesis' && t.address !== host.usdc.address && t.address !== host.native.address);
  host.labels.wallets = {
    whales: of('whale'), smartMoney: of('smart'), snipers: of('sniper'), sandwichers: of('sandwicher'), arbitrageurs: of('arber'),
    exchanges: of('exchange'), liquidityProviders: of('lp'), crossChainArbitrageurs: [...of('accumulator'), ...of('distributor')],
    holders: of('holder'), treasuries: supplied ? [treasury] : [], retail: of('retail'), issuers: [host.deployer],
  };
}

/** Funds every actor with gas, wrapped native and USDC, and approves every router for both. */
export function fundCast(host: MarketHost, nativeUsd: number): void {
  for (const role of Object.keys(ACTOR_COUNTS) as Role[]) {
    for (const actor of host.actors(role)) {
      const usd = FUNDING_USD[role];
      if (usd === 0) {
        if (role !== 'holder') host.queueBalance(actor, parseEther('10000')); // gas only
        continue;
      }
      const wrapped = parseUnits((usd / 2 / nativeUsd).toFixed(6), 18);
      host.queueBalance(actor, wrapped + parseEther('10000')); // what it wraps, and gas
      host.queue({ from: host.deployer, to: host.usdc.address, data: encodeFunctionData({ abi: EmbeddedUSDC.abi, functionName: 'mint', args: [actor, parseUnits(String(usd / 2), 6)] }), gas: GAS.transfer });
      host.queue({ from: actor, to: host.native.address, data: encodeFunctionData({ abi: WrappedNative.abi, functionName: 'deposit' }), value: wrapped, gas: GAS.transfer });
      host.credit(actor, host.usdc.address, parseUnits(String(usd / 2), 6));
      host.credit(actor, host.native.address, wrapped);
      for (const router of host.routers) {
        host.approve(actor, host.usdc.address, router);
        host.approve(actor, host.native.address, router);
      }
    }
  }
}
