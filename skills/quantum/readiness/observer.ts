/**
 * A plug-in of the Bitcoin index (BitcoinTxObserver 'quantum-exposure'): the chain's supply by
 * who could read its key, kept as blocks are read. Per holder (an address, or a P2PK output
 * script): its output type, balance, and whether a spend from it has revealed its key. Supply in
 * P2PK and P2TR outputs is exposed by construction; in reused addresses (spent from, still
 * holding) by the spend. A reorg is undone from a per-block journal.
 */
import type { EsploraBlock, EsploraTx, EsploraVout } from '../../../chain/esplora.js';
import type { BitcoinTxObserver } from '../../../chain/bitcoin.js';

export const EXPOSURE_OBSERVER = 'quantum-exposure';
/** Blocks whose changes are kept for a reorg. */
const JOURNAL_DEPTH = 288;

interface Holder {
  type: string;
  sats: number;
  revealed: boolean;
}

export interface SupplyExposure {
  readonly fromHeight: number | null;
  readonly toHeight: number | null;
  /** The journal could not undo a reorg: figures no longer match the chain. */
  readonly consistent: boolean;
  readonly supplySats: number;
  /** Satoshis by output type (Esplora's scriptpubkey_type). */
  readonly byType: Record<string, number>;
  readonly p2pkSats: number;
  readonly p2trSats: number;
  /** Hash-hidden types (P2PKH, P2WPKH, P2SH, P2WSH) at addresses that have spent before. */
  readonly reusedSats: number;
  readonly exposedSats: number;
  readonly holders: number;
  readonly exposedHolders: number;
}

const HIDDEN_TYPES = new Set(['p2pkh', 'v0_p2wpkh', 'p2sh', 'v0_p2wsh']);

export class ExposureObserver implements BitcoinTxObserver {
  readonly name = EXPOSURE_OBSERVER;
  private readonly holders = new Map<string, Holder>();
  private readonly journal: { height: number; undo: (() => void)[] }[] = [];
  private from: number | null = null;
  private to: number | null = null;
  private consistent = true;

  onBlock(block: EsploraBlock, txs: readonly EsploraTx[]): void {
    const undo: (() => void)[] = [];
    this.journal.push({ height: block.height, undo });
    if (this.journal.length > JOURNAL_DEPTH) this.journal.shift();
    const touch = (out: EsploraVout): Holder | null => {
      const key = out.scriptpubkey_address ?? (out.scriptpubkey_type === 'op_return' ? null : `${out.scriptpubkey_type}:${out.scriptpubkey}`);
      if (!key) return null;
      let h = this.holders.get(key);
      if (!h) {
        h = { type: out.scriptpubkey_type, sats: 0, revealed: false };
        this.holders.set(key, h);
        undo.push(() => this.holders.delete(key));
      }
      const was = { ...h };
      undo.push(() => Object.assign(h, was));
      return h;
    };
    for (const tx of txs) {
      for (const vin of tx.vin) {
        if (vin.is_coinbase || !vin.prevout) continue;
        const h = touch(vin.prevout);
        if (!h) continue;
        h.sats -= vin.prevout.value;
        h.revealed = true;
      }
      for (const out of tx.vout) {
        if (out.value === 0) continue;
        const h = touch(out);
        if (h) h.sats += out.value;
      }
    }
    const [from, to] = [this.from, this.to];
    undo.push(() => ((this.from = from), (this.to = to)));
    this.from ??= block.height;
    this.to = block.height;
  }

  rewind(height: number): void {
    if (this.from === null || height <= this.from) {
      // Everything read goes: start again clean.
      this.holders.clear();
      this.journal.length = 0;
      this.from = this.to = null;
      this.consistent = true;
      return;
    }
    if (this.journal.length && this.journal[0]!.height > height) this.consistent = false;
    while (this.journal.length && this.journal.at(-1)!.height >= height) {
      const { undo } = this.journal.pop()!;
      for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
    }
  }

  supply(): SupplyExposure {
    const byType: Record<string, number> = {};
    let supply = 0, reused = 0, holders = 0, exposedHolders = 0;
    for (const h of this.holders.values()) {
      if (h.sats <= 0) continue;
      holders++;
      supply += h.sats;
      byType[h.type] = (byType[h.type] ?? 0) + h.sats;
      const reusedHere = h.revealed && HIDDEN_TYPES.has(h.type);
      if (reusedHere) reused += h.sats;
      if (reusedHere || h.type === 'p2pk' || h.type === 'v1_p2tr') exposedHolders++;
    }
    const p2pk = byType.p2pk ?? 0;
    const p2tr = byType.v1_p2tr ?? 0;
    return {
      fromHeight: this.from, toHeight: this.to, consistent: this.consistent,
      supplySats: supply, byType, p2pkSats: p2pk, p2trSats: p2tr, reusedSats: reused, exposedSats: p2pk + p2tr + reused,
      holders, exposedHolders,
    };
  }
}
