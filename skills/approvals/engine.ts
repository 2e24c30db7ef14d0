/**
 * Live ERC-20 approvals of an address (`approvals/v2`), read from the chain itself, so a real
 * RPC serves it unchanged: every Approval log with the address as owner, the allowance each
 * (token, spender) has now, what the spender is, what the owner would lose to it today, and the
 * transaction that revokes it.
 */
import { encodeFunctionData, erc20Abi, formatUnits, getAddress, parseAbiItem, type Address, type Hex } from 'viem';
import type { ConnectedChain } from '../../chain/runtime.js';
import { readInHalves } from '../../chain/log-ranges.js';
import type { Market } from '../data/market.js';
import { DRAINERS_METHODOLOGY, drainerRecord, type DrainerRecord } from './drainers.js';

export const APPROVALS_METHODOLOGY =
  `approvals/v2 (ERC-20 Approval and ERC-721/1155 ApprovalForAll logs with the address as owner, read from the chain; live allowance(owner, spender) or isApprovedForAll now; spender: router when its factory() is a DEX factory the chain lists, drainer when it has swept other owners (${DRAINERS_METHODOLOGY}), eoa when it has no code, self-destructed when it had code at the approval and has none now, else contract; value at risk = min(allowance, balance) at the token's indexed price now)`;
/** From this allowance on an approval is "unlimited" (2^255: what wallets send as max is above it). */
export const UNLIMITED = 2n ** 255n;

const APPROVAL = parseAbiItem('event Approval(address indexed owner, address indexed spender, uint256 value)');
const APPROVAL_FOR_ALL = parseAbiItem('event ApprovalForAll(address indexed owner, address indexed operator, bool approved)');
const OPERATOR_ABI = [
  { type: 'function', name: 'isApprovedForAll', stateMutability: 'view', inputs: [{ type: 'address' }, { type: 'address' }], outputs: [{ type: 'bool' }] },
  { type: 'function', name: 'setApprovalForAll', stateMutability: 'nonpayable', inputs: [{ type: 'address' }, { type: 'bool' }], outputs: [] },
  { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ type: 'address' }], outputs: [{ type: 'uint256' }] },
] as const;
const FACTORY = [{ type: 'function', name: 'factory', stateMutability: 'view', inputs: [], outputs: [{ type: 'address' }] }] as const;

export type SpenderKind = 'router' | 'drainer' | 'contract' | 'eoa' | 'self-destructed';

export interface LiveApproval {
  /** erc20: an allowance; operator: an ERC-721/1155 ApprovalForAll over every item the owner holds. */
  standard: 'erc20' | 'operator';
  token: Address;
  symbol: string | null;
  spender: Address;
  spenderKind: SpenderKind;
  /** The DEX whose router the spender is. */
  dex: string | null;
  /** For a drainer: owners it swept without their transaction (drainers/v1). */
  drained: DrainerRecord['victims'] | null;
  allowance: string;
  unlimited: boolean;
  balance: string;
  valueAtRiskUsd: number | null;
  approvedAt: { block: number; tx: Hex };
  revoke: { to: Address; data: Hex };
}

export async function liveApprovals(chain: ConnectedChain, owner: Address, market: Market | null, toBlock: bigint): Promise<{ approvals: LiveApproval[]; logs: number }> {
  const [erc20Approvals, operators] = await Promise.all([allowances(chain, owner, market, toBlock), operatorApprovals(chain, owner, toBlock)]);
  // What could be taken today first; operator approvals (no USD price) after the priced ones.
  const approvals = [...erc20Approvals.approvals, ...operators.approvals].sort((a, b) => (b.valueAtRiskUsd ?? -1) - (a.valueAtRiskUsd ?? -1));
  return { approvals, logs: erc20Approvals.logs + operators.logs };
}

async function allowances(chain: ConnectedChain, owner: Address, market: Market | null, toBlock: bigint): Promise<{ approvals: LiveApproval[]; logs: number }> {
  const logs = await readInHalves((from, to) => chain.client.getLogs({ event: APPROVAL, args: { owner }, fromBlock: BigInt(from), toBlock: BigInt(to), strict: true }), 0, Number(toBlock));
  // ERC-721's Approval has the same signature with the token id indexed (four topics): not an allowance.
  const erc20 = logs.filter((l) => l.topics.length === 3);
  // The latest approval of each (token, spender): where it was granted.
  const latest = new Map<string, (typeof erc20)[number]>();
  for (const l of erc20) latest.set(`${l.address.toLowerCase()}:${l.args.spender!.toLowerCase()}`, l);
  const pairs = [...latest.values()];
  if (!pairs.length) return { approvals: [], logs: logs.length };
  const reads = await chain.client.multicall({
    allowFailure: true,
    blockNumber: toBlock,
    contracts: pairs.flatMap((l) => [
      { address: l.address, abi: erc20Abi, functionName: 'allowance', args: [owner, l.args.spender!] },
      { address: l.address, abi: erc20Abi, functionName: 'balanceOf', args: [owner] },
      { address: l.args.spender!, abi: FACTORY, functionName: 'factory' },
    ] as const),
  });
  const factories = new Map(chain.spec.dexes.map((d) => [d.factory.toLowerCase(), d.id]));
  const out: LiveApproval[] = [];
  for (const [i, l] of pairs.entries()) {
    const [allowanceRead, balanceRead, factoryRead] = [reads[3 * i]!, reads[3 * i + 1]!, reads[3 * i + 2]!];
    if (allowanceRead.status !== 'success' || (allowanceRead.result as bigint) === 0n) continue; // revoked or spent
    const allowance = allowanceRead.result as bigint;
    const balance = balanceRead.status === 'success' ? (balanceRead.result as bigint) : 0n;
    const token = getAddress(l.address);
    const spender = getAddress(l.args.spender!);
    const dex = factoryRead.status === 'success' ? (factories.get(String(factoryRead.result).toLowerCase()) ?? null) : null;
    const decimals = market?.decimals(token.toLowerCase()) ?? (await chain.client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' }).catch(() => 18));
    const price = market?.priceNow(token.toLowerCase())?.usd ?? null;
    const atRisk = allowance < balance ? allowance : balance;
    out.push({
      standard: 'erc20',
      token,
      symbol: market?.tokens.get(token.toLowerCase())?.symbol ?? null,
      spender,
      ...(dex ? { spenderKind: 'router' as const, drained: null } : await judge(chain, spender, l.blockNumber, toBlock)),
      dex,
      allowance: formatUnits(allowance, decimals),
      unlimited: allowance >= UNLIMITED,
      balance: formatUnits(balance, decimals),
      valueAtRiskUsd: price === null ? null : Math.round(Number(formatUnits(atRisk, decimals)) * price * 100) / 100,
      approvedAt: { block: Number(l.blockNumber), tx: l.transactionHash },
      revoke: { to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, 0n] }) },
    });
  }
  return { approvals: out, logs: logs.length };
}

/** Live ApprovalForAll grants (ERC-721 and ERC-1155): an operator that may move every item the owner holds in that collection. */
async function operatorApprovals(chain: ConnectedChain, owner: Address, toBlock: bigint): Promise<{ approvals: LiveApproval[]; logs: number }> {
  const logs = await readInHalves((from, to) => chain.client.getLogs({ event: APPROVAL_FOR_ALL, args: { owner }, fromBlock: BigInt(from), toBlock: BigInt(to), strict: true }), 0, Number(toBlock));
  const latest = new Map<string, (typeof logs)[number]>();
  for (const l of logs) latest.set(`${l.address.toLowerCase()}:${l.args.operator!.toLowerCase()}`, l);
  const grants = [...latest.values()].filter((l) => l.args.approved);
  if (!grants.length) return { approvals: [], logs: logs.length };
  const reads = await chain.client.multicall({
    allowFailure: true,
    blockNumber: toBlock,
    contracts: grants.flatMap((l) => [
      { address: l.address, abi: OPERATOR_ABI, functionName: 'isApprovedForAll', args: [owner, l.args.operator!] },
      { address: l.address, abi: OPERATOR_ABI, functionName: 'balanceOf', args: [owner] },
    ] as const),
  });
  const out: LiveApproval[] = [];
  for (const [i, l] of grants.entries()) {
    const [live, held] = [reads[2 * i]!, reads[2 * i + 1]!];
    if (live.status !== 'success' || live.result !== true) continue; // revoked since
    const operator = getAddress(l.args.operator!);
    out.push({
      standard: 'operator', token: getAddress(l.address), symbol: null, spender: operator,
      ...(await judge(chain, operator, l.blockNumber, toBlock)), dex: null,
      allowance: 'all', unlimited: true,
      // ERC-721 counts the items held; ERC-1155's balanceOf takes an id, so the count is unknown.
      balance: held.status === 'success' ? String(held.result) : 'unknown',
      valueAtRiskUsd: null,
      approvedAt: { block: Number(l.blockNumber), tx: l.transactionHash },
      revoke: { to: getAddress(l.address), data: encodeFunctionData({ abi: OPERATOR_ABI, functionName: 'setApprovalForAll', args: [operator, false] }) },
    });
  }
  return { approvals: out, logs: logs.length };
}

/** A spender that is no known router: a drainer by its record, else what its code says. */
async function judge(chain: ConnectedChain, spender: Address, approvedAt: bigint, toBlock: bigint): Promise<{ spenderKind: SpenderKind; drained: LiveApproval['drained'] }> {
  const record = await drainerRecord(chain, spender, toBlock);
  if (record.drainer) return { spenderKind: 'drainer', drained: record.victims };
  return { spenderKind: await kindOf(chain, spender, approvedAt), drained: null };
}

/** An account without code, a contract, or one whose code is gone since it was approved. */
async function kindOf(chain: ConnectedChain, spender: Address, approvedAt: bigint): Promise<SpenderKind> {
  const now = await chain.client.getCode({ address: spender });
  if (now && now !== '0x') return 'contract';
  // A node without that block's state cannot tell a self-destructed contract from an account.
  const then = await chain.client.getCode({ address: spender, blockNumber: approvedAt }).catch(() => undefined);
  return then && then !== '0x' ? 'self-destructed' : 'eoa';
}
