/**
 * Ground truth of the Bitcoin world, written beside the EVM labels for the detector evaluation
 * and read by tests. The analytics never read it: they only see the Esplora API.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export type ExposureReason = 'p2pk' | 'reused-after-spend' | 'taproot-key-path';

export interface BitcoinLabels {
  readonly seed: string;
  /** The tip the labels describe (confirmed state; the mempool is not counted). */
  tipHeight: number;
  tipHash: string;
  /** First height of the dense era (blocks every ~10 minutes from the world's origin); below it, the sparse pre-history. */
  denseFromHeight: number;
  /** Block weight limit of the world (mainnet's scaled down) and the scale. */
  blockWeightLimit: number;
  blockScale: number;
  actors: {
    pools: { name: string; addresses: string[] }[];
    exchanges: { name: string; cold: string[]; hot: string[]; deposits: string[] }[];
    custodians: { name: string; backs: string; addresses: string[]; sats: number }[];
    holders: string[];
    traders: string[];
    stakers: string[];
    /** P2PK coinbases of the first years (no address): their output scripts in hex. */
    earlyMinerScripts: string[];
  };
  /**
   * Addresses whose public key a quantum attacker could read from the chain, with the sats they
   * hold at the tip (confirmed). P2PK outputs have no address: theirs is `p2pk:<output script hex>`.
   */
  exposed: { address: string; why: ExposureReason; sats: number }[];
  /** Per block of the dense era: the lowest and highest feerate included (sat/vB), tx count, and whether the block was full. */
  blocks: { height: number; minFeerate: number | null; maxFeerate: number | null; txCount: number; full: boolean }[];
  inscriptions: {
    inscriptionId: string; txid: string; height: number; ticker: string; op: 'deploy' | 'mint' | 'transfer';
    /** Decimal string as inscribed (the max for a deploy). */
    amount: string; lim?: string;
    /** Address the inscription was revealed to. */
    owner: string;
    /** For a transfer inscription: where it was sent and when (null while unsent). */
    sentTo: string | null; sentTxid: string | null;
    /** Whether the operation is valid under BRC-20's rules (a mint past the max, or a transfer over the balance, is not). */
    valid: boolean;
  }[];
  runes: {
    name: string; spacedName: string; id: string; etchingTxid: string; commitTxid: string; divisibility: number; symbol: string;
    premine: string; amount: string | null; cap: string | null; mints: { txid: string; height: number; to: string }[];
    transfers: { txid: string; height: number; from: string; to: string; amount: string }[];
  }[];
  staking: {
    txid: string; staker: string; stakerPk: string; finalityProviderPk: string; sats: number; timelock: number; height: number;
    unbondedAt: number | null; unbondingTxid: string | null; withdrawnAt: number | null; withdrawTxid: string | null;
  }[];
  /** Custody addresses per wrapped token (also in actors.custodians). */
  custody: Record<string, string[]>;
}

export async function writeBitcoinLabels(path: string, labels: BitcoinLabels): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify({ writtenAt: new Date().toISOString(), bitcoin: labels }, null, 1));
}
