import { describe, expect, it } from 'vitest';
import { concat, decodeFunctionData, encodePacked, getAddress, keccak256, type Address, type Hex } from 'viem';
import { CHAINS, EMBEDDED_AIRDROP_FACTORY } from '../../chain/chains.js';
import { AirdropTree, type AirdropLeaf } from '../../chain/merkle-airdrop.js';
import type { ConnectedChain } from '../../chain/runtime.js';
import { airdropAllocations, DISTRIBUTOR_ABI } from './engine.js';
import { addr, TKN, tokenUsdc, units } from '../data/testing/fixtures.js';

const [W, OTHER, THIRD] = [getAddress(addr(0xa11ce)), getAddress(addr(0xb0b)), getAddress(addr(0xc4a1))];
const [OPEN, PAST, DRY, FORGED, PARTIAL] = [0xd1, 0xd2, 0xd3, 0xd4, 0xd5].map((n) => getAddress(addr(n))) as [Address, Address, Address, Address, Address];
const NOW = 1_800_000_000n;
const HEAD = { number: 5_000n, timestamp: NOW };

/** OpenZeppelin's MerkleProof.verify, written out here: the engine's proofs must pass the contract's check, not its own. */
function verify(proof: readonly Hex[], root: Hex, leaf: AirdropLeaf): boolean {
  let hash = keccak256(encodePacked(['uint256', 'address', 'uint256'], [leaf.index, leaf.account, leaf.amount]));
  for (const sibling of proof) hash = keccak256(BigInt(hash) < BigInt(sibling) ? concat([hash, sibling]) : concat([sibling, hash]));
  return hash === root;
}

interface Planted {
  leaves: AirdropLeaf[];
  /** The root the distributor holds on chain (the tree's unless forged). */
  root: Hex;
  endTime: bigint;
  funds: bigint;
  claimed: Set<bigint>;
  /** Leaves per LeavesPublished log, and how many the creation announced. */
  chunk: number;
  announced?: number;
}

/** A node answering the factory's logs (ranges over 1,000 blocks refused, as public RPCs do) and the distributors' reads. */
function chainWith(distributors: Map<Address, Planted>) {
  const asked: [bigint, bigint][] = [];
  const logs = [...distributors].flatMap(([distributor, p], n) => {
    const block = BigInt(100 + 900 * n);
    const tx = `0x${(n + 1).toString(16).padStart(64, '0')}` as Hex;
    const chunks: AirdropLeaf[][] = [];
    for (let i = 0; i < p.leaves.length; i += p.chunk) chunks.push(p.leaves.slice(i, i + p.chunk));
    return [
      { eventName: 'DistributorCreated', blockNumber: block, transactionHash: tx, args: { distributor, token: TKN, creator: addr(0x7ea), merkleRoot: p.root, endTime: p.endTime, leafCount: BigInt(p.announced ?? p.leaves.length) } },
      ...chunks.map((c) => ({ eventName: 'LeavesPublished', blockNumber: block, transactionHash: tx, args: { distributor, index: c.map((l) => l.index), account: c.map((l) => l.account), amount: c.map((l) => l.amount) } })),
    ];
  });
  const client = {
    async getCode({ address }: { address: Address }) {
      return address === EMBEDDED_AIRDROP_FACTORY ? '0x6080' : '0x';
    },
    async getLogs({ address, fromBlock, toBlock }: { address: Address; fromBlock: bigint; toBlock: bigint }) {
      asked.push([fromBlock, toBlock]);
      if (toBlock - fromBlock > 1_000n) throw new Error('query exceeds max block range 1000');
      return address === EMBEDDED_AIRDROP_FACTORY ? logs.filter((l) => l.blockNumber >= fromBlock && l.blockNumber <= toBlock) : [];
    },
    async multicall({ contracts }: { contracts: { address: Address; functionName: string; args?: readonly unknown[] }[] }) {
      return contracts.map((c) => {
        const p = distributors.get(getAddress(c.functionName === 'balanceOf' ? (c.args![0] as Address) : c.address))!;
        const result = c.functionName === 'merkleRoot' ? p.root : c.functionName === 'token' ? TKN : c.functionName === 'endTime' ? p.endTime
          : c.functionName === 'isClaimed' ? p.claimed.has(c.args![0] as bigint) : p.funds;
        return { status: 'success', result };
      });
    },
    async readContract() { return 18; },
  };
  return { chain: { name: 'base', spec: CHAINS.base, client } as unknown as ConnectedChain, asked };
}

const leaf = (index: number, account: Address, whole: number): AirdropLeaf => ({ index: BigInt(index), account, amount: units(whole, 18) });
/** A distributor over `leaves` holding the tree's own root. */
const planted = (leaves: AirdropLeaf[], over: Partial<Planted> = {}): Planted => ({ leaves, root: new AirdropTree(leaves).root, endTime: NOW + 86_400n, funds: units(1_000_000, 18), claimed: new Set(), chunk: 64, ...over });

describe('airdrops/v1', () => {
  it('rebuilds each tree from leaves published in chunks; every proof passes the contract\'s check and the claim calldata carries it', async () => {
    // Seven leaves (an odd layer on the way up), published three to a log.
    const leaves = [leaf(0, OTHER, 10), leaf(1, THIRD, 20), leaf(2, W, 30), leaf(3, addr(0x44), 40), leaf(4, addr(0x55), 50), leaf(5, addr(0x66), 60), leaf(6, addr(0x77), 70)];
    const tree = new AirdropTree(leaves);
    for (const l of leaves) expect(verify(tree.proof(l), tree.root, l), `leaf ${l.index}`).toBe(true);
    expect(verify(tree.proof(leaves[2]!), tree.root, { ...leaves[2]!, amount: leaves[2]!.amount + 1n })).toBe(false);

    const { chain, asked } = chainWith(new Map([[OPEN, planted(leaves, { chunk: 3 })]]));
    const market = await tokenUsdc(10_000, 50_000).market(); // TKN at $5
    const scan = await airdropAllocations(chain, W, market, HEAD);
    expect(asked[0]).toEqual([0n, 5_000n]); // at once first, then in halves the node accepts
    expect(scan).toMatchObject({ factory: EMBEDDED_AIRDROP_FACTORY, distributors: 1, unreadable: [] });
    expect(scan.allocations).toHaveLength(1);
    const a = scan.allocations[0]!;
    expect(a).toMatchObject({ distributor: OPEN, token: getAddress(TKN), symbol: 'TKN', index: 2, amount: '30', amountRaw: units(30, 18).toString(), status: 'claimable', valueUsd: 150, unpricedReason: null });
    expect(a.deadline).toEqual({ unix: Number(NOW) + 86_400, iso: new Date((Number(NOW) + 86_400) * 1000).toISOString() });
    const call = decodeFunctionData({ abi: DISTRIBUTOR_ABI, data: a.claim!.data });
    expect(call).toEqual({ functionName: 'claim', args: [2n, W, units(30, 18), a.claim!.proof] });
    expect(a.claim!.to).toBe(OPEN);
    expect(verify(a.claim!.proof, tree.root, leaves[2]!)).toBe(true);
  });

  it('claimed, expired and unfunded allocations as the chain has them; no claim transaction for any of them', async () => {
    const { chain } = chainWith(new Map([
      [OPEN, planted([leaf(0, W, 5), leaf(1, OTHER, 5)], { claimed: new Set([0n]) })],
      [PAST, planted([leaf(0, OTHER, 5), leaf(1, W, 7)], { endTime: NOW - 1n })],
      [DRY, planted([leaf(0, W, 9), leaf(1, THIRD, 1)], { funds: units(8, 18) })],
    ]));
    const scan = await airdropAllocations(chain, W, null, HEAD);
    expect(scan.allocations.map((a) => [a.distributor, a.index, a.status, a.claim])).toEqual([
      [DRY, 0, 'unfunded', null],
      [OPEN, 0, 'claimed', null],
      [PAST, 1, 'expired', null],
    ]);
    // Without an index the amounts stand, unpriced, with why.
    expect(scan.allocations.every((a) => a.valueUsd === null && a.unpricedReason === 'this chain has no index to price it')).toBe(true);
  });

  it('a distributor whose published leaves do not rebuild its root on chain, or are incomplete, is unreadable: none of its leaves is trusted', async () => {
    const honest = [leaf(0, W, 3), leaf(1, OTHER, 4)];
    const { chain } = chainWith(new Map([
      // Leaves published with W's amount inflated: the tree on chain is another one.
      [FORGED, planted([leaf(0, W, 3_000), leaf(1, OTHER, 4)], { root: new AirdropTree(honest).root })],
      [PARTIAL, planted(honest, { announced: 3 })],
      [OPEN, planted([leaf(0, THIRD, 1)])],
    ]));
    const scan = await airdropAllocations(chain, W, null, HEAD);
    expect(scan.allocations).toEqual([]);
    expect(scan.distributors).toBe(3);
    expect(scan.unreadable).toEqual([
      { distributor: FORGED, reason: expect.stringMatching(/^the published leaves rebuild root 0x[0-9a-f]{64}, but merkleRoot\(\) on chain is 0x[0-9a-f]{64}$/) },
      { distributor: PARTIAL, reason: '2 of the 3 announced leaves were published' },
    ]);
  });

  it('an address in no tree, and a chain without the factory: empty, not an error', async () => {
    const { chain } = chainWith(new Map([[OPEN, planted([leaf(0, OTHER, 1)])]]));
    expect(await airdropAllocations(chain, W, null, HEAD)).toMatchObject({ distributors: 1, allocations: [], unreadable: [] });
    expect(await airdropAllocations(chain, W, null, HEAD, getAddress(addr(0xfac)))).toEqual({ factory: null, distributors: 0, logs: 0, allocations: [], unreadable: [] });
  });
});
