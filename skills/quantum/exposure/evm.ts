/**
 * An EVM account's quantum exposure (quantum-exposure/v1): an externally owned account that has
 * sent a transaction has put a signature on chain, and an ECDSA signature recovers its public key,
 * so its nonce above zero is the exposure. A contract wallet has no key of its own (its owners'
 * keys matter: a Safe's getOwners() or an owner() are read and checked the same way). An EIP-7702
 * delegated account (code 0xef0100…) signed its delegation, which reveals its key too.
 * The evidence is the account's first transaction (nonce 0), found by bisecting the nonce over
 * block heights, with the public key recovered from its signature where the node serves it.
 */
import {
  getAddress, keccak256, parseAbi, recoverPublicKey, serializeTransaction,
  type Address, type PublicClient, type Transaction, type TransactionSerializable,
} from 'viem';
import { publicKeyToAddress } from 'viem/accounts';
import type { ExposureEvidence, ExposureStatus } from './bitcoin.js';

export type EvmExposureReason = 'sent-transaction' | 'delegation-signed';
export type EvmAccountType = 'eoa' | 'eoa-delegated' | 'contract';

export interface EvmOwner {
  readonly address: string;
  readonly nonce: number;
  readonly keyRevealed: boolean;
}

export interface EvmExposure {
  readonly address: string;
  readonly accountType: EvmAccountType;
  readonly nonce: number;
  readonly keyRevealed: boolean;
  readonly why: EvmExposureReason | null;
  readonly evidence: ExposureEvidence | null;
  /** A contract wallet's owners (Safe getOwners() or owner()), each checked the same way; null when it names none. */
  readonly owners: EvmOwner[] | null;
}

const OWNER_ABI = parseAbi(['function getOwners() view returns (address[])', 'function owner() view returns (address)']);
/** Owners of a contract wallet checked at most. */
const MAX_OWNERS = 10;

export async function evmAccountExposure(
  client: PublicClient,
  address: Address,
  blockNumber: bigint,
  options: { evidence?: boolean } = {},
): Promise<EvmExposure> {
  const [code, nonce] = await Promise.all([
    client.getCode({ address, blockNumber }),
    client.getTransactionCount({ address, blockNumber }),
  ]);
  const accountType: EvmAccountType = !code || code === '0x' ? 'eoa' : code.toLowerCase().startsWith('0xef0100') ? 'eoa-delegated' : 'contract';
  if (accountType === 'contract') {
    return { address, accountType, nonce, keyRevealed: false, why: null, evidence: null, owners: await ownersOf(client, address, blockNumber) };
  }
  const keyRevealed = nonce > 0 || accountType === 'eoa-delegated';
  const why: EvmExposureReason | null = nonce > 0 ? 'sent-transaction' : accountType === 'eoa-delegated' ? 'delegation-signed' : null;
  const evidence = nonce > 0 && options.evidence !== false ? await firstSentTx(client, address, blockNumber) : null;
  return { address, accountType, nonce, keyRevealed, why, evidence, owners: null };
}

async function ownersOf(client: PublicClient, wallet: Address, blockNumber: bigint): Promise<EvmOwner[] | null> {
  let owners: readonly Address[] | null = null;
  try {
    owners = await client.readContract({ address: wallet, abi: OWNER_ABI, functionName: 'getOwners', blockNumber });
  } catch {
    try {
      owners = [await client.readContract({ address: wallet, abi: OWNER_ABI, functionName: 'owner', blockNumber })];
    } catch {
      return null;
    }
  }
  const real = owners.filter((o) => BigInt(o) !== 0n).slice(0, MAX_OWNERS);
  return Promise.all(real.map(async (o) => {
    const nonce = await client.getTransactionCount({ address: o, blockNumber });
    return { address: getAddress(o), nonce, keyRevealed: nonce > 0 };
  }));
}

/**
 * The account's first transaction: the lowest block whose state shows a nonce above zero (found
 * by bisection, ~log2(height) reads), then its nonce-0 transaction in that block. Null evidence
 * with a note where the node keeps no state that old.
 */
export async function firstSentTx(client: PublicClient, address: Address, head: bigint): Promise<ExposureEvidence | null> {
  let lo = 0n;
  let hi = head;
  try {
    while (lo < hi) {
      const mid = (lo + hi) / 2n;
      if ((await client.getTransactionCount({ address, blockNumber: mid })) > 0) hi = mid;
      else lo = mid + 1n;
    }
  } catch (err) {
    return unreadable(`the node serves no state at the heights searched (${(err as Error).message.split('\n')[0]}); the nonce alone shows the account has sent`);
  }
  const block = await client.getBlock({ blockNumber: lo, includeTransactions: true });
  const tx = block.transactions.find((t) => t.from.toLowerCase() === address.toLowerCase() && t.nonce === 0)
    ?? block.transactions.find((t) => t.from.toLowerCase() === address.toLowerCase());
  if (!tx) return unreadable(`block ${lo} raised the nonce but holds no transaction from the account`);
  const publicKey = await recoveredKey(tx);
  const verified = publicKey !== null && publicKeyToAddress(publicKey).toLowerCase() === address.toLowerCase();
  return {
    tx: tx.hash, block: Number(lo), time: new Date(Number(block.timestamp) * 1000).toISOString(), first: tx.nonce === 0,
    publicKeys: verified ? [publicKey!] : [], script: null, verified,
    note: verified
      ? 'the first transaction the account sent (nonce 0); its signature recovers the public key shown'
      : 'the first transaction the account sent (nonce 0); its signature does not recover the account here (a devnet account sent without a real signature), yet on a real chain any sent transaction reveals the key',
  };
}

function unreadable(note: string): ExposureEvidence {
  return { tx: '', block: null, time: null, first: false, publicKeys: [], script: null, verified: false, note };
}

/** The public key a signed transaction's signature recovers (uncompressed, hex), or null where the fields do not rebuild it. */
export async function recoveredKey(tx: Transaction): Promise<`0x${string}` | null> {
  try {
    const common = { to: tx.to ?? undefined, value: tx.value, data: tx.input, nonce: tx.nonce, gas: tx.gas };
    let unsigned: TransactionSerializable;
    if (tx.type === 'eip1559') unsigned = { ...common, type: 'eip1559', chainId: tx.chainId!, maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas, accessList: tx.accessList };
    else if (tx.type === 'eip2930') unsigned = { ...common, type: 'eip2930', chainId: tx.chainId!, gasPrice: tx.gasPrice, accessList: tx.accessList };
    else if (tx.type === 'legacy') unsigned = { ...common, type: 'legacy', gasPrice: tx.gasPrice, ...(tx.chainId !== undefined && { chainId: tx.chainId }) };
    else return null;
    // Legacy v: 27/28, or chainId * 2 + 35/36 (EIP-155); typed transactions carry yParity.
    const yParity = tx.yParity ?? (tx.v === undefined ? undefined : Number((tx.v >= 35n ? tx.v - 35n : tx.v - 27n) % 2n));
    if (yParity === undefined) return null;
    return await recoverPublicKey({ hash: keccak256(serializeTransaction(unsigned)), signature: { r: tx.r, s: tx.s, yParity } });
  } catch {
    return null;
  }
}

export type { ExposureStatus };
