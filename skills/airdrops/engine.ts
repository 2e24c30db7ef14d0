/**
 * Merkle airdrop allocations of an address on one chain (`airdrops/v1`), read from the chain
 * itself. Distributors come from the airdrop factory's logs (DistributorCreated, then its leaves
 * in LeavesPublished chunks); each distributor's tree is rebuilt from its published leaves and
 * trusted only when the root equals `merkleRoot()` on chain, otherwise the distributor is listed
 * as unreadable and nothing of it is guessed. For each allocation of the address: claimed
 * (`isClaimed`), expired (`endTime` before the head block), unfunded (the distributor holds less
 * than the amount) or claimable, with the unsigned `claim(index, account, amount, proof)`.
 */
import { encodeFunctionData, erc20Abi, formatUnits, getAddress, parseAbi, parseAbiItem, type Address, type Hex } from 'viem';
import { EMBEDDED_AIRDROP_FACTORY } from '../../chain/chains.js';
import { readInHalves } from '../../chain/log-ranges.js';
import { AirdropTree, type AirdropLeaf } from '../../chain/merkle-airdrop.js';
import type { ConnectedChain } from '../../chain/runtime.js';
import { round, type Market } from '../data/market.js';

export const AIRDROPS_METHODOLOGY =
  'airdrops/v1 (merkle distributors from the airdrop factory\'s DistributorCreated and LeavesPublished logs, read from the chain; each tree rebuilt from its published leaves, keccak256(index, account, amount) with sorted-pair hashing, and trusted only when its root equals merkleRoot() on chain; status: claimed when isClaimed(index), expired when endTime is before the head block, unfunded when the distributor holds less than the amount, else claimable with claim(index, account, amount, proof); USD at the token\'s indexed price now)';

const CREATED = parseAbiItem('event DistributorCreated(address indexed distributor, address indexed token, address indexed creator, bytes32 merkleRoot, uint256 endTime, uint256 leafCount)');
const PUBLISHED = parseAbiItem('event LeavesPublished(address indexed distributor, uint256[] index, address[] account, uint256[] amount)');
export const DISTRIBUTOR_ABI = parseAbi([
  'function token() view returns (address)',
  'function merkleRoot() view returns (bytes32)',
  'function endTime() view returns (uint256)',
  'function isClaimed(uint256 index) view returns (bool)',
  'function claim(uint256 index, address account, uint256 amount, bytes32[] merkleProof)',
]);

export type AirdropStatus = 'claimable' | 'claimed' | 'expired' | 'unfunded';

export interface AirdropAllocation {
  distributor: Address;
  token: Address;
  symbol: string | null;
  index: number;
  /** Token units (decimal), and the raw integer the leaf holds. */
  amount: string;
  amountRaw: string;
  status: AirdropStatus;
  valueUsd: number | null;
  unpricedReason: string | null;
  deadline: { unix: number; iso: string };
  createdAt: { block: number; tx: Hex };
  /** Unsigned, for anyone to send (the tokens go to the account): only for a claimable allocation. */
  claim: { to: Address; data: Hex; proof: Hex[] } | null;
}

export interface UnreadableDistributor { distributor: Address; reason: string }

export interface AirdropScan {
  /** The factory read; null when the chain has none at its address. */
  factory: Address | null;
  distributors: number;
  logs: number;
  allocations: AirdropAllocation[];
  unreadable: UnreadableDistributor[];
}

interface Distributor {
  address: Address;
  leafCount: bigint;
  block: bigint;
  tx: Hex;
  leaves: AirdropLeaf[];
}

/** Status order for equal values: what can still be done first. */
const STATUS_ORDER: Record<AirdropStatus, number> = { claimable: 0, unfunded: 1, claimed: 2, expired: 3 };

export async function airdropAllocations(
  chain: ConnectedChain, account: Address, market: Market | null, head: { number: bigint; timestamp: bigint }, factory: Address = EMBEDDED_AIRDROP_FACTORY,
): Promise<AirdropScan> {
  const code = await chain.client.getCode({ address: factory, blockNumber: head.number });
  if (!code || code === '0x') return { factory: null, distributors: 0, logs: 0, allocations: [], unreadable: [] };
  const logs = await readInHalves((from, to) => chain.client.getLogs({ address: factory, events: [CREATED, PUBLISHED], fromBlock: BigInt(from), toBlock: BigInt(to), strict: true }), 0, Number(head.number));

  const distributors = new Map<string, Distributor>();
  for (const l of logs) {
    if (l.eventName !== 'DistributorCreated') continue;
    const address = getAddress(l.args.distributor);
    distributors.set(address.toLowerCase(), { address, leafCount: l.args.leafCount, block: l.blockNumber, tx: l.transactionHash, leaves: [] });
  }
  for (const l of logs) {
    if (l.eventName !== 'LeavesPublished') continue;
    const d = distributors.get(l.args.distributor.toLowerCase());
    if (!d) continue;
    const { index, account: accounts, amount } = l.args;
    for (let i = 0; i < index.length; i++) d.leaves.push({ index: index[i]!, account: getAddress(accounts[i]!), amount: amount[i]! });
  }

  const list = [...distributors.values()];
  const reads = await chain.client.multicall({
    allowFailure: true,
    blockNumber: head.number,
    contracts: list.flatMap((d) => [
      { address: d.address, abi: DISTRIBUTOR_ABI, functionName: 'merkleRoot' },
      { address: d.address, abi: DISTRIBUTOR_ABI, functionName: 'token' },
      { address: d.address, abi: DISTRIBUTOR_ABI, functionName: 'endTime' },
    ] as const),
  });

  const unreadable: UnreadableDistributor[] = [];
  /** The address's leaves in distributors whose published tree is the one on chain. */
  const mine: { d: Distributor; tree: AirdropTree; token: Address; endTime: bigint; leaf: AirdropLeaf }[] = [];
  for (const [i, d] of list.entries()) {
    const [rootRead, tokenRead, endRead] = [reads[3 * i]!, reads[3 * i + 1]!, reads[3 * i + 2]!];
    if (rootRead.status !== 'success' || tokenRead.status !== 'success' || endRead.status !== 'success') {
      unreadable.push({ distributor: d.address, reason: 'merkleRoot(), token() or endTime() could not be read' });
      continue;
    }
    const problem = treeProblem(d, rootRead.result as Hex);
    if (typeof problem === 'string') {
      unreadable.push({ distributor: d.address, reason: problem });
      continue;
    }
    for (const leaf of d.leaves) {
      if (leaf.account.toLowerCase() === account.toLowerCase()) mine.push({ d, tree: problem, token: getAddress(tokenRead.result as Address), endTime: endRead.result as bigint, leaf });
    }
  }
  if (!mine.length) return { factory, distributors: list.length, logs: logs.length, allocations: [], unreadable };

  const state = await chain.client.multicall({
    allowFailure: true,
    blockNumber: head.number,
    contracts: mine.flatMap(({ d, token, leaf }) => [
      { address: d.address, abi: DISTRIBUTOR_ABI, functionName: 'isClaimed', args: [leaf.index] },
      { address: token, abi: erc20Abi, functionName: 'balanceOf', args: [d.address] },
    ] as const),
  });
  const allocations: AirdropAllocation[] = [];
  for (const [i, { d, tree, token, endTime, leaf }] of mine.entries()) {
    const [claimedRead, fundsRead] = [state[2 * i]!, state[2 * i + 1]!];
    if (claimedRead.status !== 'success') {
      unreadable.push({ distributor: d.address, reason: `isClaimed(${leaf.index}) could not be read` });
      continue;
    }
    const funds = fundsRead.status === 'success' ? (fundsRead.result as bigint) : 0n;
    const status: AirdropStatus = claimedRead.result ? 'claimed' : endTime < head.timestamp ? 'expired' : funds < leaf.amount ? 'unfunded' : 'claimable';
    const decimals = market?.decimals(token) ?? (await chain.client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' }).catch(() => 18));
    const price = market?.priceNow(token)?.usd ?? null;
    const amount = formatUnits(leaf.amount, decimals);
    const proof = tree.proof(leaf);
    allocations.push({
      distributor: d.address, token, symbol: market?.tokens.get(token.toLowerCase())?.symbol ?? null,
      index: Number(leaf.index), amount, amountRaw: leaf.amount.toString(), status,
      valueUsd: price === null ? null : round(Number(amount) * price, 2),
      unpricedReason: price !== null ? null : market ? 'no pool with enough liquidity prices this token' : 'this chain has no index to price it',
      deadline: { unix: Number(endTime), iso: new Date(Number(endTime) * 1000).toISOString() },
      createdAt: { block: Number(d.block), tx: d.tx },
      claim: status !== 'claimable' ? null : {
        to: d.address, proof,
        data: encodeFunctionData({ abi: DISTRIBUTOR_ABI, functionName: 'claim', args: [leaf.index, leaf.account, leaf.amount, proof] }),
      },
    });
  }
  allocations.sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || (b.valueUsd ?? -1) - (a.valueUsd ?? -1));
  return { factory, distributors: list.length, logs: logs.length, allocations, unreadable };
}

/** The rebuilt tree when the published leaves are complete and rebuild the root on chain, else why they cannot be trusted. */
function treeProblem(d: Distributor, onChainRoot: Hex): AirdropTree | string {
  if (BigInt(d.leaves.length) !== d.leafCount) return `${d.leaves.length} of the ${d.leafCount} announced leaves were published`;
  if (!d.leaves.length) return 'no leaves were published';
  const tree = new AirdropTree(d.leaves);
  if (tree.root.toLowerCase() !== onChainRoot.toLowerCase()) return `the published leaves rebuild root ${tree.root}, but merkleRoot() on chain is ${onChainRoot}`;
  return tree;
}
