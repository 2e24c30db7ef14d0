/**
 * Merkle airdrops: on every chain, projects airdrop their genesis token to actors of the market
 * (retail traders, long-term holders, smart money, whales) through distributors created by the
 * MerkleAirdropFactory at its embedded address, which publishes every leaf on chain. The
 * treasury creates and funds each distributor. Three per chain: one whose claim window closes
 * 12 hours into history (expired by its end), one open for months, and one created 8 hours in.
 * Demo wallet #1 is always among the eligible and never claims, so a newcomer asking about it
 * finds an allocation to claim. A share of the others claim over the following days; holders,
 * who keep no gas, have theirs sent by the project's relayer (anyone may submit a claim).
 *
 * The airdropped tokens are not credited to the market's holdings mirror: a retail trader's
 * choices read what it holds, and the market must trade as it would without airdrops. The
 * mirror under-counts them, which never makes a trade fail.
 */
import { encodeAbiParameters, encodeDeployData, encodeFunctionData, getContractAddress, keccak256, parseEther, type Address } from 'viem';
import { MerkleAirdropFactory, MerkleDistributor } from '../../chain/artifacts/index.js';
import { demoAccount } from '../../chain/accounts.js';
import { EMBEDDED_AIRDROP_FACTORY } from '../../chain/chains.js';
import { GENESIS_TREASURY } from '../../chain/genesis.js';
import { AirdropTree, type AirdropLeaf } from '../../chain/merkle-airdrop.js';
import type { Role } from '../actors.js';
import type { TokenInfo } from '../world.js';
import type { WorldHost, WorldModuleFactory } from './module.js';

export interface AirdropLabels {
  /**
   * Each distributor, its token, its claim deadline (unix seconds), every allocation (amount in
   * raw units) and the claims made, with their block.
   */
  airdrops: {
    distributor: Address; token: Address; symbol: string; creator: Address; deadline: number; block: number;
    allocations: { index: number; account: Address; amount: string }[];
    claims: { index: number; account: Address; block: number }[];
  }[];
}

export function emptyAirdropLabels(): AirdropLabels {
  return { airdrops: [] };
}

const HOUR = 3600;
const DAY = 86_400;
/** Each chain's airdrops: when each is created after the start of history, how long it may be claimed, and the share of the eligible that claim. */
const PLANS = [
  { createAfter: 0, window: 12 * HOUR, claimShare: 0.5 },
  { createAfter: 0, window: 120 * DAY, claimShare: 0.4 },
  { createAfter: 8 * HOUR, window: 90 * DAY, claimShare: 0.4 },
] as const;
/** The chance an actor of each role is eligible for one airdrop. */
const ELIGIBLE: Partial<Record<Role, number>> = { retail: 0.35, holder: 0.4, smart: 0.7, whale: 0.5 };
/** An allocation's value when it is drawn, USD (log-uniform). */
const ALLOCATION_USD = [25, 2_500] as const;
/** Claims come between half an hour and three days after the distributor, before its deadline. */
const CLAIM_DELAY = [0.5 * HOUR, 3 * DAY] as const;
const GAS = { create: 1_500_000n, perLeaf: 15_000n, claim: 200_000n };

interface Leaf { index: number; account: Address; amount: string }
interface Airdrop {
  token: Address;
  symbol: string;
  createAt: number;
  deadline: number;
  leaves: Leaf[];
  distributor: Address;
  created: boolean;
}
interface Claim { airdrop: number; index: number; at: number; sender: Address }
interface AirdropsState {
  relayer: Address;
  airdrops: Airdrop[];
  /** Claims still to send, earliest first. */
  claims: Claim[];
}

const asLeaf = (l: Leaf): AirdropLeaf => ({ index: BigInt(l.index), account: l.account, amount: BigInt(l.amount) });

export const airdropsModule: WorldModuleFactory = (_chain, rng) => {
  let state: AirdropsState = { relayer: '0x0000000000000000000000000000000000000000', airdrops: [], claims: [] };
  /** Trees by distributor, rebuilt on demand (never saved: the leaves are). */
  const trees = new Map<Address, AirdropTree>();
  const treeOf = (a: Airdrop) => {
    let tree = trees.get(a.distributor);
    if (!tree) trees.set(a.distributor, (tree = new AirdropTree(a.leaves.map(asLeaf))));
    return tree;
  };

  /** Draws one airdrop: its token, the eligible (demo wallet #1 always among them) and their amounts, and who claims when. */
  const plan = (host: WorldHost, p: (typeof PLANS)[number], tokens: readonly TokenInfo[], start: number): Airdrop => {
    const token = rng.pick(tokens);
    const createAt = start + p.createAfter;
    const price = host.referenceUsd(token, createAt) ?? 1;
    const accounts = (Object.entries(ELIGIBLE) as [Role, number][]).flatMap(([role, chance]) => host.actors(role).filter(() => rng.chance(chance)));
    accounts.splice(rng.int(0, accounts.length), 0, demoAccount(1).address);
    const leaves = accounts.map((account, index) => {
      const units = rng.logUniform(...ALLOCATION_USD) / price;
      // Whole hundredths of a token, as allocation spreadsheets write them.
      const amount = BigInt(Math.max(1, Math.round(units * 100))) * 10n ** BigInt(token.decimals - 2);
      return { index, account, amount: amount.toString() };
    });
    const deadline = createAt + p.window;
    const root = new AirdropTree(leaves.map(asLeaf)).root;
    const salt = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'bytes32' }, { type: 'uint256' }], [GENESIS_TREASURY, token.address, root, BigInt(deadline)]));
    const bytecode = encodeDeployData({ abi: MerkleDistributor.abi, bytecode: MerkleDistributor.bytecode, args: [token.address, root, BigInt(deadline), GENESIS_TREASURY] });
    const distributor = getContractAddress({ opcode: 'CREATE2', from: EMBEDDED_AIRDROP_FACTORY, salt, bytecode });
    const airdrop: Airdrop = { token: token.address, symbol: token.symbol, createAt, deadline, leaves, distributor, created: false };
    const holders = new Set(host.actors('holder').map((h) => h.toLowerCase()));
    const airdropIndex = state.airdrops.length;
    for (const leaf of leaves) {
      if (leaf.account === demoAccount(1).address || !rng.chance(p.claimShare)) continue;
      const at = createAt + Math.round(rng.logUniform(...CLAIM_DELAY));
      if (at >= deadline) continue;
      state.claims.push({ airdrop: airdropIndex, index: leaf.index, at, sender: holders.has(leaf.account.toLowerCase()) ? state.relayer : leaf.account });
    }
    return airdrop;
  };

  /** The treasury creates the distributor (its leaves published by the factory) and funds it in full. */
  const create = (host: WorldHost, a: Airdrop) => {
    a.created = true;
    const leaves = a.leaves.map(asLeaf);
    host.queue({
      from: GENESIS_TREASURY, to: EMBEDDED_AIRDROP_FACTORY,
      data: encodeFunctionData({ abi: MerkleAirdropFactory.abi, functionName: 'createDistributor', args: [a.token, treeOf(a).root, BigInt(a.deadline), leaves.map((l) => l.index), leaves.map((l) => l.account), leaves.map((l) => l.amount)] }),
      gas: GAS.create + GAS.perLeaf * BigInt(leaves.length),
    });
    host.fundToken(a.distributor, a.token, leaves.reduce((sum, l) => sum + l.amount, 0n));
    host.onMined((block) => host.labels.airdrops.push({
      distributor: a.distributor, token: a.token, symbol: a.symbol, creator: GENESIS_TREASURY, deadline: a.deadline, block,
      allocations: a.leaves.map((l) => ({ ...l })), claims: [],
    }));
  };

  const claim = (host: WorldHost, c: Claim) => {
    const a = state.airdrops[c.airdrop]!;
    const leaf = asLeaf(a.leaves[c.index]!);
    host.queue({
      from: c.sender, to: a.distributor,
      data: encodeFunctionData({ abi: MerkleDistributor.abi, functionName: 'claim', args: [leaf.index, leaf.account, leaf.amount, treeOf(a).proof(leaf)] }),
      gas: GAS.claim,
    });
    // Out of the distributor; the claimant's mirror is left as it was (see the module's note).
    host.credit(a.distributor, a.token, -leaf.amount);
    host.onMined((block) => host.labels.airdrops.find((l) => l.distributor === a.distributor)?.claims.push({ index: c.index, account: leaf.account, block }));
  };

  return {
    name: 'airdrops',
    async setup(host) {
      await host.rpc.call('anvil_setCode', [EMBEDDED_AIRDROP_FACTORY, MerkleAirdropFactory.deployedBytecode]);
      const tokens = host.tokens().filter((t) => t.kind === 'genesis' && t.asset === t.symbol && t.decimals >= 2 && t !== host.usdc && t !== host.native);
      if (!tokens.length) return;
      state.relayer = host.actorAddress('airdrop-relayer', 0);
      host.queueBalance(state.relayer, parseEther('100'));
      const start = host.time();
      for (const p of PLANS) state.airdrops.push(plan(host, p, tokens, start));
      state.claims.sort((a, b) => a.at - b.at);
      for (const a of state.airdrops) if (a.createAt <= start) create(host, a);
    },
    step(host, t) {
      for (const a of state.airdrops) if (!a.created && a.createAt <= t) create(host, a);
      let due = 0;
      while (due < state.claims.length && state.claims[due]!.at <= t) due++;
      for (const c of state.claims.splice(0, due)) {
        const a = state.airdrops[c.airdrop]!;
        // A block later than the deadline would see the claim revert: that claimant missed it.
        if (a.created && t <= a.deadline) claim(host, c);
      }
    },
    toState: () => state,
    restore(saved) {
      state = saved as AirdropsState;
    },
  };
};
