/**
 * The BRC-20 index: a plug-in of the Bitcoin index that reads every confirmed transaction once
 * and keeps the BRC-20 state the standard defines:
 * - deploy: the first valid deploy of a ticker creates it (max, lim, decimals);
 * - mint: credits its amount (at most lim; the last mint gets what remains under max) to the
 *   address the inscription is revealed to;
 * - transfer: an inscription of at most the owner's available balance moves that much to
 *   "transferable"; when the inscribed sat is next spent, the amount goes to the address that
 *   receives the sat (first-in-first-out sat flow); sent as fee, it returns to the sender.
 * Inscriptions with any of ord's curse flaws, or content other than text/plain or
 * application/json, are not BRC-20 operations.
 */
import type { EsploraBlock, EsploraTx, EsploraVout } from '../../../chain/esplora.js';
import { envelopesInTx } from './envelope.js';
import { brc20OpOf, BRC20_MAX_AMOUNT, scaledAmount, type Brc20Op } from './ops.js';
import { JournaledObserver } from '../observers/journal.js';
import { ownerOf } from '../observers/script.js';

export const BRC20_OBSERVER = 'brc20';
/** Completed transfers kept for "recent transfers". */
const RECENT_TRANSFERS = 500;

export interface Brc20Ticker {
  readonly tick: string;
  readonly max: bigint;
  readonly lim: bigint;
  readonly dec: number;
  readonly deployInscription: string;
  readonly deployHeight: number;
  readonly deployTime: number;
  minted: bigint;
  /** Valid mints, and mint inscriptions refused (over lim, after the supply ran out, malformed amount). */
  mints: number;
  invalidMints: number;
  /** Valid transfer inscriptions, and those refused (over the available balance). */
  transferInscriptions: number;
  invalidTransfers: number;
  /** Transfer inscriptions sent on (completed transfers). */
  transfers: number;
  burned: bigint;
  lastMintHeight: number | null;
}

export interface Brc20Balance {
  available: bigint;
  transferable: bigint;
}

export interface Brc20Transfer {
  readonly tick: string;
  readonly inscriptionId: string;
  readonly from: string;
  /** Null when the sat went to fees (the amount returned to the sender) or to an OP_RETURN (burned). */
  readonly to: string | null;
  readonly outcome: 'sent' | 'returned' | 'burned';
  readonly amount: bigint;
  readonly txid: string;
  readonly height: number;
  readonly time: number;
}

/** A transfer inscription not yet sent on: where its sat sits. */
interface PendingTransfer {
  readonly inscriptionId: string;
  readonly tick: string;
  readonly amount: bigint;
  readonly owner: string;
  /** The sat's offset in its output. */
  readonly offset: number;
}

/** Where a sat at `offset` of a transaction's inputs lands: an output and its offset there, or null (fees). */
export function satDestination(vout: readonly Pick<EsploraVout, 'value'>[], offset: number): { vout: number; offset: number } | null {
  let start = 0;
  for (let k = 0; k < vout.length; k++) {
    const value = vout[k]!.value;
    if (offset < start + value) return { vout: k, offset: offset - start };
    start += value;
  }
  return null;
}

export class Brc20Index extends JournaledObserver {
  readonly name = BRC20_OBSERVER;
  private readonly tickerMap = new Map<string, Brc20Ticker>();
  /** Per ticker, per owner. */
  private readonly balanceMap = new Map<string, Map<string, Brc20Balance>>();
  /** Outpoint (txid:vout) → transfer inscriptions sitting on it. */
  private readonly pending = new Map<string, PendingTransfer[]>();
  private readonly recent: Brc20Transfer[] = [];

  protected readBlock(block: EsploraBlock, txs: readonly EsploraTx[]): void {
    for (const tx of txs) this.onTx(tx, block);
  }

  protected clear(): void {
    this.tickerMap.clear();
    this.balanceMap.clear();
    this.pending.clear();
    this.recent.length = 0;
  }

  tickers(): readonly Brc20Ticker[] {
    return [...this.tickerMap.values()];
  }

  /** Owners with a positive balance (available + transferable) of a ticker, largest first. */
  holders(tick: string): { address: string; balance: bigint; available: bigint; transferable: bigint }[] {
    const m = this.balanceMap.get(tick);
    if (!m) return [];
    return [...m]
      .map(([address, b]) => ({ address, balance: b.available + b.transferable, available: b.available, transferable: b.transferable }))
      .filter((h) => h.balance > 0n)
      .sort((a, b) => (b.balance > a.balance ? 1 : b.balance < a.balance ? -1 : a.address.localeCompare(b.address)));
  }

  /** Completed transfers, newest first. */
  recentTransfers(): readonly Brc20Transfer[] {
    return [...this.recent].reverse();
  }

  /** Transfer inscriptions not sent on yet. */
  pendingTransfers(): number {
    let n = 0;
    for (const list of this.pending.values()) n += list.length;
    return n;
  }

  private onTx(tx: EsploraTx, block: EsploraBlock): void {
    const envelopes = envelopesInTx(tx);
    const totalOut = tx.vout.reduce((s, v) => s + v.value, 0);
    let inputOffset = 0;
    let inscriptionNumber = 0;
    tx.vin.forEach((vin, i) => {
      const here = inputOffset;
      inputOffset += vin.prevout?.value ?? 0;
      if (vin.is_coinbase) return;
      // Inscriptions already on the spent output move first (ord's order), then the input's new ones.
      const moving = this.pending.get(`${vin.txid}:${vin.vout}`);
      if (moving) {
        this.journal.delete(this.pending, `${vin.txid}:${vin.vout}`);
        for (const p of moving) this.complete(p, tx, satDestination(tx.vout, here + p.offset), block);
      }
      for (const env of envelopes.filter((e) => e.input === i)) {
        const inscriptionId = `${tx.txid}i${inscriptionNumber++}`;
        const op = brc20OpOf(env);
        if (!op) continue;
        const offset = env.pointer !== null && env.pointer < BigInt(totalOut) ? Number(env.pointer) : here;
        const dest = satDestination(tx.vout, offset);
        this.apply(op, inscriptionId, tx, dest, block);
      }
    });
  }

  private balance(tick: string, owner: string): Brc20Balance {
    let m = this.balanceMap.get(tick);
    if (!m) this.journal.set(this.balanceMap, tick, (m = new Map()));
    let b = m.get(owner);
    if (!b) this.journal.set(m, owner, (b = { available: 0n, transferable: 0n }));
    return b;
  }

  private apply(op: Brc20Op, inscriptionId: string, tx: EsploraTx, dest: { vout: number; offset: number } | null, block: EsploraBlock): void {
    const j = this.journal;
    if (op.op === 'deploy') {
      if (this.tickerMap.has(op.tick)) return;
      j.set(this.tickerMap, op.tick, {
        tick: op.tick, max: op.max, lim: op.lim, dec: op.dec, deployInscription: inscriptionId, deployHeight: block.height, deployTime: block.timestamp,
        minted: 0n, mints: 0, invalidMints: 0, transferInscriptions: 0, invalidTransfers: 0, transfers: 0, burned: 0n, lastMintHeight: null,
      });
      return;
    }
    const t = this.tickerMap.get(op.tick);
    if (!t) return;
    const amt = scaledAmount(op.amt, t.dec);
    // The inscription's owner: whoever receives its sat in the reveal (none when it goes to fees or an OP_RETURN).
    const owner = dest ? ownerOf(tx.vout[dest.vout]!) : null;
    if (op.op === 'mint') {
      const remaining = t.max - t.minted;
      if (amt === null || amt <= 0n || amt > t.lim || remaining <= 0n || !owner) {
        j.assign(t, 'invalidMints', t.invalidMints + 1);
        return;
      }
      const credited = amt > remaining ? remaining : amt;
      j.assign(t, 'minted', t.minted + credited);
      j.assign(t, 'mints', t.mints + 1);
      j.assign(t, 'lastMintHeight', block.height);
      const b = this.balance(op.tick, owner);
      j.assign(b, 'available', b.available + credited);
      return;
    }
    const b = owner ? this.balance(op.tick, owner) : null;
    if (amt === null || amt <= 0n || amt > BRC20_MAX_AMOUNT || !b || !dest || b.available < amt) {
      j.assign(t, 'invalidTransfers', t.invalidTransfers + 1);
      return;
    }
    j.assign(b, 'available', b.available - amt);
    j.assign(b, 'transferable', b.transferable + amt);
    j.assign(t, 'transferInscriptions', t.transferInscriptions + 1);
    const at = `${tx.txid}:${dest.vout}`;
    j.set(this.pending, at, [...(this.pending.get(at) ?? []), { inscriptionId, tick: op.tick, amount: amt, owner: owner!, offset: dest.offset }]);
  }

  /** A transfer inscription's sat moved: its amount leaves the sender for whoever received the sat. */
  private complete(p: PendingTransfer, tx: EsploraTx, dest: { vout: number; offset: number } | null, block: EsploraBlock): void {
    const j = this.journal;
    const t = this.tickerMap.get(p.tick)!;
    const from = this.balance(p.tick, p.owner);
    j.assign(from, 'transferable', from.transferable - p.amount);
    const out = dest ? tx.vout[dest.vout]! : null;
    const to = out ? ownerOf(out) : null;
    let outcome: Brc20Transfer['outcome'];
    if (!out) {
      outcome = 'returned';
      j.assign(from, 'available', from.available + p.amount);
    } else if (!to) {
      outcome = 'burned';
      j.assign(t, 'burned', t.burned + p.amount);
    } else {
      outcome = 'sent';
      const b = this.balance(p.tick, to);
      j.assign(b, 'available', b.available + p.amount);
    }
    j.assign(t, 'transfers', t.transfers + 1);
    j.push(this.recent, { tick: p.tick, inscriptionId: p.inscriptionId, from: p.owner, to, outcome, amount: p.amount, txid: tx.txid, height: block.height, time: block.timestamp });
    if (this.recent.length > RECENT_TRANSFERS) {
      // Trimming the oldest is not journalled: a rewind never reaches back that far in transfers.
      this.recent.shift();
    }
  }
}
