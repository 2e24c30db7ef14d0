/**
 * The UTXO set and what each block does to it, kept in memory: every unspent output with its
 * value, creation height, time and price, running supply and realised cap, and per block the
 * figures the daily metrics sum (transactions, volume, fees, miner revenue, active addresses,
 * exchange flows, spent value at spend and creation price). Recent blocks keep their undo data
 * so a reorganisation can be unwound. Pure and synchronous: the indexer feeds it blocks in order.
 */
import type { EsploraBlock, EsploraTx } from '../../chain/esplora.js';
import type { BitcoinEntity, ExchangeFlows, IndexedBlock, IndexedUtxo, SpentValue } from '../../chain/bitcoin.js';

/** Age at which a holder counts as long-term (the usual 155 days). */
export const LONG_TERM_SECONDS = 155 * 86_400;
/** Supply unmoved this long counts as dormant. */
export const DORMANT_SECONDS = 365 * 86_400;
export const SATS_PER_BTC = 100_000_000;

export const vsizeOf = (weight: number) => Math.ceil(weight / 4);

interface MutableSpent {
  sats: number;
  atSpend: number;
  atCreation: number;
  unpriced: number;
}

/** What one block contributed (summed into days) and the state right after it. */
export interface BlockRecord {
  readonly block: IndexedBlock;
  /** The running maximum of block times up to this block (days follow it, so they never go back). */
  readonly clockTime: number;
  readonly price: number | null;
  readonly txVolume: number;
  readonly activeAddresses: readonly string[];
  readonly exchange: ExchangeFlows;
  readonly spent: SpentValue;
  readonly spentShortTerm: SpentValue;
  readonly spentLongTerm: SpentValue;
  /** After the block: satoshis unspent, realised cap (USD, null if some output's price is unknown). */
  readonly supply: number;
  readonly realizedCap: number | null;
  /** Satoshis unspent for DORMANT_SECONDS or more, measured at this block's close once the next day began. */
  dormantSupply?: number;
  /** Undo data (dropped past the reorg depth). */
  undo?: { readonly created: readonly string[]; readonly spent: readonly IndexedUtxo[] };
}

const key = (txid: string, vout: number) => `${txid}:${vout}`;
const emptySpent = (): MutableSpent => ({ sats: 0, atSpend: 0, atCreation: 0, unpriced: 0 });

export interface LedgerOptions {
  readonly priceAt: (time: number) => number | null;
  readonly entities: readonly BitcoinEntity[];
  /** Blocks whose undo data is kept. */
  readonly reorgDepth: number;
}

export class Ledger {
  private readonly set = new Map<string, IndexedUtxo>();
  readonly records: BlockRecord[] = [];
  private supplySats = 0;
  /** Σ value × creation price over outputs whose price is known (USD). */
  private realized = 0;
  private unpricedOutputs = 0;
  private readonly exchangeOf = new Map<string, string>();

  constructor(private readonly o: LedgerOptions) {
    for (const e of o.entities) if (e.kind === 'exchange') for (const a of e.addresses) this.exchangeOf.set(a, e.name);
  }

  get size() {
    return this.set.size;
  }

  utxos(): Iterable<IndexedUtxo> {
    return this.set.values();
  }

  get supply() {
    return this.supplySats;
  }

  get realizedCap(): number | null {
    return this.unpricedOutputs ? null : this.realized;
  }

  /** Applies a block whose transactions are given in order; returns its record. */
  apply(b: EsploraBlock, txs: readonly EsploraTx[]): BlockRecord {
    const last = this.records.at(-1);
    const clockTime = Math.max(b.timestamp, last?.clockTime ?? 0);
    // The previous day closed: measure its dormant supply on the set as it stood then.
    if (last && dayOf(clockTime) !== dayOf(last.clockTime)) last.dormantSupply = this.dormantAt(last.clockTime);
    const price = this.o.priceAt(b.timestamp);
    const created: string[] = [];
    const spentUtxos: IndexedUtxo[] = [];
    const addresses = new Set<string>();
    const spent = emptySpent(), shortTerm = emptySpent(), longTerm = emptySpent();
    const byExchange: Record<string, { inflow: number; outflow: number }> = {};
    let fees = 0, minerRevenue = 0, txVolume = 0;
    const feerates: number[] = [];

    for (const tx of txs) {
      const coinbase = tx.vin.length > 0 && tx.vin[0]!.is_coinbase;
      const inputAddresses = new Set<string>();
      const moved = new Map<string, number>(); // exchange → inputs from it minus outputs to it
      if (!coinbase) {
        fees += tx.fee;
        feerates.push(tx.fee / vsizeOf(tx.weight));
        for (const i of tx.vin) {
          const k = key(i.txid, i.vout);
          const u = this.set.get(k);
          const value = u?.value ?? i.prevout?.value ?? 0;
          const address = u?.address ?? i.prevout?.scriptpubkey_address ?? null;
          if (address) {
            addresses.add(address);
            inputAddresses.add(address);
            const ex = this.exchangeOf.get(address);
            if (ex) moved.set(ex, (moved.get(ex) ?? 0) + value);
          }
          if (u) {
            this.set.delete(k);
            spentUtxos.push(u);
            this.supplySats -= u.value;
            if (u.price === null) this.unpricedOutputs--;
            else this.realized -= (u.value / SATS_PER_BTC) * u.price;
          }
          // SOPR: value at spend price over value at creation price (an output read before the index began has no creation price).
          const side = u && b.timestamp - u.time >= LONG_TERM_SECONDS ? longTerm : shortTerm;
          for (const s of [spent, side]) {
            s.sats += value;
            if (u && u.price !== null && price !== null) {
              s.atSpend += (value / SATS_PER_BTC) * price;
              s.atCreation += (value / SATS_PER_BTC) * u.price;
            } else s.unpriced += value;
          }
        }
      }
      tx.vout.forEach((out, vout) => {
        const address = out.scriptpubkey_address ?? null;
        if (coinbase) minerRevenue += out.value;
        if (address) {
          addresses.add(address);
          const ex = this.exchangeOf.get(address);
          if (ex) moved.set(ex, (moved.get(ex) ?? 0) - out.value);
          if (!coinbase && !inputAddresses.has(address)) txVolume += out.value;
        }
        if (out.scriptpubkey_type === 'op_return') return; // provably unspendable: not supply
        const k = key(tx.txid, vout);
        this.set.set(k, { txid: tx.txid, vout, value: out.value, address, height: b.height, time: b.timestamp, price, coinbase });
        created.push(k);
        this.supplySats += out.value;
        if (price === null) this.unpricedOutputs++;
        else this.realized += (out.value / SATS_PER_BTC) * price;
      });
      // Per exchange, the net of what left it and what reached it: internal moves and change cancel out.
      for (const [ex, net] of moved) {
        if (net === 0) continue;
        const f = (byExchange[ex] ??= { inflow: 0, outflow: 0 });
        if (net < 0) f.inflow += -net;
        else f.outflow += net;
      }
    }

    feerates.sort((x, y) => x - y);
    const record: BlockRecord = {
      block: {
        height: b.height,
        hash: b.id,
        time: b.timestamp,
        weight: b.weight,
        size: b.size,
        txCount: txs.length,
        fees,
        minerRevenue,
        feerate: feerates.length ? { min: feerates[0]!, median: median(feerates), max: feerates.at(-1)! } : null,
      },
      clockTime,
      price,
      txVolume,
      activeAddresses: [...addresses],
      exchange: sumFlows(byExchange),
      spent,
      spentShortTerm: shortTerm,
      spentLongTerm: longTerm,
      supply: this.supplySats,
      realizedCap: this.realizedCap,
      undo: { created, spent: spentUtxos },
    };
    this.records.push(record);
    const old = this.records.at(-1 - this.o.reorgDepth);
    if (old) delete old.undo;
    return record;
  }

  /** Unwinds the last block (its undo data must still be kept). */
  unwind(): BlockRecord {
    const r = this.records.at(-1);
    if (!r?.undo) throw new Error('no undo data for the last block');
    // Spent ones back first, then the block's outputs out: one created and spent in the block goes both ways.
    for (const u of r.undo.spent) {
      this.set.set(key(u.txid, u.vout), u);
      this.supplySats += u.value;
      if (u.price === null) this.unpricedOutputs++;
      else this.realized += (u.value / SATS_PER_BTC) * u.price;
    }
    for (const k of r.undo.created) {
      const u = this.set.get(k)!;
      this.set.delete(k);
      this.supplySats -= u.value;
      if (u.price === null) this.unpricedOutputs--;
      else this.realized -= (u.value / SATS_PER_BTC) * u.price;
    }
    this.records.pop();
    const prev = this.records.at(-1);
    if (prev) delete prev.dormantSupply; // its day is open again
    return r;
  }

  /** Whether the last `n` blocks can be unwound. */
  canUnwind(n: number): boolean {
    return n <= this.records.length && (n === 0 || this.records.at(-n)!.undo !== undefined);
  }

  /** Satoshis in outputs created at least DORMANT_SECONDS before `time`. */
  dormantAt(time: number): number {
    let sum = 0;
    for (const u of this.set.values()) if (time - u.time >= DORMANT_SECONDS) sum += u.value;
    return sum;
  }
}

export const dayOf = (time: number) => new Date(time * 1000).toISOString().slice(0, 10);

export function median(sorted: readonly number[]): number {
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m]! : (sorted[m - 1]! + sorted[m]!) / 2;
}

function sumFlows(byExchange: Record<string, { inflow: number; outflow: number }>): ExchangeFlows {
  let inflow = 0, outflow = 0;
  for (const f of Object.values(byExchange)) {
    inflow += f.inflow;
    outflow += f.outflow;
  }
  return { inflow, outflow, byExchange };
}
