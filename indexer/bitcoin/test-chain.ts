/**
 * Test support: a tiny hand-written chain served through the `Esplora` interface, in memory.
 * Blocks are written as lists of transactions with whole-satoshi outputs; fees, prevouts,
 * block weights and hashes are filled in. A test replaces the tip (`reorg`) to exercise unwinding.
 */
import { createHash } from 'node:crypto';
import type { Esplora, EsploraBlock, EsploraMempool, EsploraTx } from '../../chain/esplora.js';

export interface TestOutput {
  readonly address: string | null;
  readonly value: number;
  readonly type?: string;
}

export interface TestTx {
  /** Outputs spent, `txid:vout` (by the name given to their tx); none for a coinbase. */
  readonly spends?: readonly string[];
  readonly outputs: readonly TestOutput[];
  /** A name to spend its outputs by (default: a hash). */
  readonly name?: string;
  readonly weight?: number;
}

export interface TestBlock {
  readonly time: number;
  readonly txs: readonly TestTx[];
  /** Makes a replacement block's hash differ from the one it replaces. */
  readonly salt?: string;
  readonly weight?: number;
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

export class TestChain implements Esplora {
  readonly baseUrl = 'test://chain';
  readonly blocksById = new Map<string, { block: EsploraBlock; txs: EsploraTx[] }>();
  readonly txs = new Map<string, EsploraTx>();
  readonly main: string[] = [];
  mempoolAnswer: EsploraMempool = { count: 0, vsize: 0, total_fee: 0, fee_histogram: [] };
  estimates: Record<string, number> = {};
  /** Calls made, by method (tests check what was read). */
  readonly calls = new Map<string, number>();

  constructor(blocks: readonly TestBlock[] = [], options: { headerPages?: boolean } = {}) {
    for (const b of blocks) this.mine(b);
    if (!options.headerPages) delete (this as Partial<TestChain>).blocks;
  }

  /** The id a named tx got. */
  txid(name: string): string {
    return sha(`tx:${name}`);
  }

  mine(b: TestBlock): string {
    const height = this.main.length;
    const prev = this.main.at(-1) ?? null;
    const txs: EsploraTx[] = [];
    const id = sha(`block:${height}:${prev}:${b.salt ?? ''}:${b.time}`);
    b.txs.forEach((t, i) => {
      const txid = t.name ? this.txid(t.name) : sha(`${id}:${i}`);
      const coinbase = !t.spends?.length;
      const vin = coinbase
        ? [{ txid: '00'.repeat(32), vout: 0xffffffff, prevout: null, scriptsig: '', scriptsig_asm: '', is_coinbase: true, sequence: 0xffffffff }]
        : t.spends!.map((ref) => {
            const [name, vout] = ref.split(':');
            const prevTxid = this.txid(name!);
            const prevout = this.txs.get(prevTxid)?.vout[Number(vout)];
            if (!prevout) throw new Error(`fixture spends unknown ${ref}`);
            return { txid: prevTxid, vout: Number(vout), prevout, scriptsig: '', scriptsig_asm: '', is_coinbase: false, sequence: 0xfffffffd };
          });
      const vout = t.outputs.map((o) => ({
        scriptpubkey: '', scriptpubkey_asm: '', scriptpubkey_type: o.type ?? (o.address ? 'v0_p2wpkh' : 'op_return'),
        ...(o.address && { scriptpubkey_address: o.address }), value: o.value,
      }));
      const inSum = vin.reduce((s, i) => s + (i.prevout?.value ?? 0), 0);
      const fee = coinbase ? 0 : inSum - vout.reduce((s, o) => s + o.value, 0);
      const tx: EsploraTx = {
        txid, version: 2, locktime: 0, vin, vout, size: 200, weight: t.weight ?? 800, fee,
        status: { confirmed: true, block_height: height, block_hash: id, block_time: b.time },
      };
      txs.push(tx);
      this.txs.set(txid, tx);
    });
    const block: EsploraBlock = {
      id, height, version: 0x20000000, timestamp: b.time, tx_count: txs.length, size: 1000, weight: b.weight ?? txs.reduce((s, t) => s + t.weight, 320),
      merkle_root: sha(id), previousblockhash: prev, nonce: 0, bits: 0x207fffff,
    };
    this.blocksById.set(id, { block, txs });
    this.main.push(id);
    return id;
  }

  /** Drops the blocks from `height` on (their transactions leave the chain), so replacements can be mined. */
  reorg(height: number): void {
    for (const id of this.main.splice(height)) for (const t of this.blocksById.get(id)!.txs) this.txs.delete(t.txid);
  }

  private count(name: string) {
    this.calls.set(name, (this.calls.get(name) ?? 0) + 1);
  }

  tipHeight = async () => (this.count('tipHeight'), this.main.length - 1);
  tipHash = async () => (this.count('tipHash'), this.main.at(-1)!);
  blockHashAt = async (h: number) => (this.count('blockHashAt'), this.main[h] ?? null);
  block = async (hash: string) => (this.count('block'), this.blocksById.get(hash)?.block ?? null);
  blockTxs = async (hash: string, start = 0) => (this.count('blockTxs'), this.blocksById.get(hash)?.txs.slice(start, start + 25) ?? []);
  /** GET /blocks/:start_height: up to ten headers, newest first (removed unless `headerPages`). */
  blocks? = async (start: number) => {
    this.count('blocks');
    const out: EsploraBlock[] = [];
    for (let h = Math.min(start, this.main.length - 1); h >= 0 && out.length < 10; h--) out.push(this.blocksById.get(this.main[h]!)!.block);
    return out;
  };
  blockTxids = async (hash: string) => this.blocksById.get(hash)?.txs.map((t) => t.txid) ?? [];
  tx = async (txid: string) => this.txs.get(txid) ?? null;
  outspends = async () => [];
  address = async (address: string) => ({ address, chain_stats: { funded_txo_count: 0, funded_txo_sum: 0, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 0 }, mempool_stats: { funded_txo_count: 0, funded_txo_sum: 0, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 0 } });
  addressUtxo = async () => [];
  addressTxs = async () => [];
  mempool = async () => (this.count('mempool'), this.mempoolAnswer);
  mempoolRecent = async () => [];
  mempoolTxids = async () => [];
  feeEstimates = async () => (this.count('feeEstimates'), this.estimates);
}
