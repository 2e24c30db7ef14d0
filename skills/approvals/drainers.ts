/**
 * Whether a spender behaves as a drainer (`drainers/v1`), read from the chain alone: it has taken
 * tokens from owners who approved it, in transactions those owners did not send and that gave
 * them nothing back. A DEX router or a vault pulls only in its owner's own transaction; a relayed
 * order (a solver settling a signed swap) pays the owner in the same transaction; a drainer's
 * operator sweeps victims who receive nothing. Two such victims make a drainer.
 */
import { getAddress, parseAbiItem, toEventSelector, type Address, type Hash } from 'viem';
import type { ConnectedChain } from '../../chain/runtime.js';
import { readInHalves } from '../../chain/log-ranges.js';

export const DRAINER_MIN_VICTIMS = 2;
export const DRAINERS_METHODOLOGY = `drainers/v1 (a spender is a drainer once it has moved tokens out of at least ${DRAINER_MIN_VICTIMS} owners who approved it, in transactions sent by the spender or to it, not by the owner, in which the owner received nothing)`;

const APPROVAL = parseAbiItem('event Approval(address indexed owner, address indexed spender, uint256 value)');
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
/** Owners and candidate transactions examined per spender: enough to find two victims, bounded for a popular spender. */
const MAX_OWNERS = 200;
const MAX_TXS = 60;
/** Topic OR-lists are split so a node's filter limits are never hit. */
const OWNERS_PER_FILTER = 50;

export interface DrainerRecord {
  spender: Address;
  drainer: boolean;
  /** Owners it took from without their transaction, up to the point the verdict was reached. */
  victims: { owner: Address; token: Address; tx: Hash; block: number }[];
  /** Owners who ever approved it (up to MAX_OWNERS read). */
  approvers: number;
}

/** Verdicts per (chain, spender, block): a spender's record only grows, and one scan can ask about it for many owners. */
const cache = new Map<string, Promise<DrainerRecord>>();
const MAX_CACHED = 5_000;

export function drainerRecord(chain: ConnectedChain, spender: Address, toBlock: bigint): Promise<DrainerRecord> {
  const key = `${chain.spec.chainId}:${spender.toLowerCase()}:${toBlock}`;
  let hit = cache.get(key);
  if (!hit) {
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
    hit = readRecord(chain, getAddress(spender), toBlock);
    cache.set(key, hit);
    hit.catch(() => cache.delete(key)); // a node error is asked again, never remembered
  }
  return hit;
}

async function readRecord(chain: ConnectedChain, spender: Address, toBlock: bigint): Promise<DrainerRecord> {
  const client = chain.client;
  const approvals = await readInHalves((from, to) => client.getLogs({ event: APPROVAL, args: { spender }, fromBlock: BigInt(from), toBlock: BigInt(to), strict: true }), 0, Number(toBlock));
  // Per owner, the tokens it approved the spender for and the first block it did.
  const approved = new Map<string, { tokens: Set<string>; from: number }>();
  for (const l of approvals) {
    if (l.topics.length !== 3) continue; // ERC-721 Approval (token id indexed)
    const owner = l.args.owner!.toLowerCase();
    const entry = approved.get(owner) ?? { tokens: new Set<string>(), from: Number(l.blockNumber) };
    entry.tokens.add(l.address.toLowerCase());
    approved.set(owner, entry);
  }
  const owners = [...approved.keys()].slice(-MAX_OWNERS) as Address[];
  const record: DrainerRecord = { spender, drainer: false, victims: [], approvers: owners.length };
  if (!owners.length) return record;
  const fromBlock = Math.min(...owners.map((o) => approved.get(o)!.from));

  // Transfers out of those owners, of a token they approved the spender for, after they did.
  const outflows: { owner: Address; token: Address; tx: Hash; block: number }[] = [];
  for (let i = 0; i < owners.length; i += OWNERS_PER_FILTER) {
    const group = owners.slice(i, i + OWNERS_PER_FILTER);
    const logs = await readInHalves((from, to) => client.getLogs({ event: TRANSFER, args: { from: group }, fromBlock: BigInt(from), toBlock: BigInt(to), strict: true }), fromBlock, Number(toBlock));
    for (const l of logs) {
      const owner = l.args.from!.toLowerCase();
      const entry = approved.get(owner)!;
      if (l.topics.length !== 3 || !entry.tokens.has(l.address.toLowerCase()) || Number(l.blockNumber) < entry.from) continue;
      outflows.push({ owner: owner as Address, token: getAddress(l.address), tx: l.transactionHash, block: Number(l.blockNumber) });
    }
  }
  // Latest first: a drainer's recent sweeps decide it soonest.
  outflows.sort((a, b) => b.block - a.block);
  const victims = new Map<string, DrainerRecord['victims'][number]>();
  const seenTx = new Set<string>();
  for (const o of outflows) {
    if (victims.has(o.owner) || seenTx.size >= MAX_TXS) continue;
    seenTx.add(o.tx);
    const tx = await client.getTransaction({ hash: o.tx });
    if (tx.from.toLowerCase() === o.owner) continue; // the owner's own doing
    const bySpender = tx.from.toLowerCase() === spender.toLowerCase() || tx.to?.toLowerCase() === spender.toLowerCase();
    if (!bySpender) continue;
    const receipt = await client.getTransactionReceipt({ hash: o.tx });
    const paidBack = receipt.logs.some((l) => l.topics[0] === TRANSFER_TOPIC && l.topics.length === 3 && topicAddress(l.topics[2]!) === o.owner);
    if (paidBack) continue; // a relayed swap: the owner got its output in the same transaction
    victims.set(o.owner, o);
    if (victims.size >= DRAINER_MIN_VICTIMS) break;
  }
  record.victims = [...victims.values()];
  record.drainer = victims.size >= DRAINER_MIN_VICTIMS;
  return record;
}

const TRANSFER_TOPIC = toEventSelector(TRANSFER);
const topicAddress = (topic: string) => `0x${topic.slice(26)}`.toLowerCase();
