/**
 * The runes index: a plug-in of the Bitcoin index that follows ord's rune updater transaction by
 * transaction:
 * - the runes in a transaction's inputs, plus a valid mint (within the rune's cap and height /
 *   offset window) and an etching's premine, are the unallocated runes;
 * - edicts allocate them to outputs (amount 0 = all that is left; output = the number of outputs
 *   = split among the non-OP_RETURN outputs); what is left goes to the pointer output, else the
 *   first non-OP_RETURN output, else it is burned; runes sent to an OP_RETURN are burned;
 * - a cenotaph burns every input rune (its mint still counts against the cap, and its etching
 *   creates an unmintable rune with no supply);
 * - an etching with a name must reveal the name's commitment in a tapscript spending a taproot
 *   output with at least six confirmations; names are unique and never in the reserved range.
 * Balances are per output and summed per owner address. Mainnet's minimum-name-length schedule
 * is not applied (it only decides which names could be etched when).
 */
import type { EsploraBlock, EsploraTx } from '../../../chain/esplora.js';
import { JournaledObserver } from '../observers/journal.js';
import { instructions, isPush, ownerOf, tapscriptOf } from '../observers/script.js';
import { decipher, reservedRune, RESERVED_RUNE, runeCommitment, runeIdKey, spacedRuneName, type Artifact, type RuneId, type Terms } from './runestone.js';

export const RUNES_OBSERVER = 'runes';
/** Confirmations a commitment's output must have when the etching is mined (ord's Runestone::COMMIT_CONFIRMATIONS). */
export const COMMIT_CONFIRMATIONS = 6;

export interface RuneEntry {
  readonly id: string;
  readonly block: number;
  readonly txIndex: number;
  readonly rune: bigint;
  readonly spacedName: string;
  readonly divisibility: number;
  readonly symbol: string | null;
  readonly premine: bigint;
  readonly terms: Terms | null;
  readonly turbo: boolean;
  readonly etchingTxid: string;
  readonly time: number;
  /** Etched by a cenotaph: it exists, but has no supply and cannot be minted. */
  readonly cenotaph: boolean;
  mints: number;
  burned: bigint;
  /** Transactions that moved it without minting or etching it. */
  transfers: number;
  lastMintHeight: number | null;
}

interface RuneOutput {
  readonly owner: string;
  readonly balances: ReadonlyMap<string, bigint>;
}

/** The first height a rune can be minted at, and the first it no longer can (ord's RuneEntry::start/end). */
export function mintWindow(entry: Pick<RuneEntry, 'block' | 'terms'>): { start: bigint | null; end: bigint | null } {
  const t = entry.terms;
  if (!t) return { start: null, end: null };
  const block = BigInt(entry.block);
  const relStart = t.offset[0] !== null ? block + t.offset[0] : null;
  const relEnd = t.offset[1] !== null ? block + t.offset[1] : null;
  const [absStart, absEnd] = t.height;
  const start = relStart !== null && absStart !== null ? (relStart > absStart ? relStart : absStart) : (relStart ?? absStart);
  const end = relEnd !== null && absEnd !== null ? (relEnd < absEnd ? relEnd : absEnd) : (relEnd ?? absEnd);
  return { start, end };
}

/** Why a rune cannot be minted at a height, or null when it can. */
export function unmintableReason(entry: Pick<RuneEntry, 'block' | 'terms' | 'mints'>, height: number): 'no-terms' | 'not-started' | 'ended' | 'cap-reached' | null {
  if (!entry.terms) return 'no-terms';
  const { start, end } = mintWindow(entry);
  if (start !== null && BigInt(height) < start) return 'not-started';
  if (end !== null && BigInt(height) >= end) return 'ended';
  if (BigInt(entry.mints) >= (entry.terms.cap ?? 0n)) return 'cap-reached';
  return null;
}

const add = (m: Map<string, bigint>, id: string, v: bigint) => m.set(id, (m.get(id) ?? 0n) + v);

export class RunesIndex extends JournaledObserver {
  readonly name = RUNES_OBSERVER;
  private readonly entries = new Map<string, RuneEntry>();
  private readonly byName = new Map<bigint, string>();
  /** Outpoint (txid:vout) → the runes it holds. */
  private readonly outputs = new Map<string, RuneOutput>();
  /** Txids of the last blocks, for the commitment's confirmations (older ones are old enough). */
  private recentTxs: { height: number; txids: Set<string> }[] = [];

  protected readBlock(block: EsploraBlock, txs: readonly EsploraTx[]): void {
    this.recentTxs = this.recentTxs.filter((b) => b.height > block.height - COMMIT_CONFIRMATIONS && b.height < block.height);
    this.recentTxs.push({ height: block.height, txids: new Set() });
    txs.forEach((tx, i) => {
      this.onTx(tx, i, block);
      this.recentTxs[this.recentTxs.length - 1]!.txids.add(tx.txid);
    });
  }

  protected override forget(height: number): void {
    this.recentTxs = this.recentTxs.filter((b) => b.height < height);
  }

  protected clear(): void {
    this.entries.clear();
    this.byName.clear();
    this.outputs.clear();
    this.recentTxs = [];
  }

  runes(): readonly RuneEntry[] {
    return [...this.entries.values()];
  }

  /** Per rune id: owner → balance, from the unspent outputs holding runes. */
  balances(): Map<string, Map<string, bigint>> {
    const out = new Map<string, Map<string, bigint>>();
    for (const o of this.outputs.values()) {
      for (const [id, v] of o.balances) {
        let m = out.get(id);
        if (!m) out.set(id, (m = new Map()));
        add(m, o.owner, v);
      }
    }
    return out;
  }

  private onTx(tx: EsploraTx, txIndex: number, block: EsploraBlock): void {
    const j = this.journal;
    const artifact = decipher(tx);
    const unallocated = new Map<string, bigint>();
    for (const vin of tx.vin) {
      if (vin.is_coinbase) continue;
      const key = `${vin.txid}:${vin.vout}`;
      const held = this.outputs.get(key);
      if (!held) continue;
      j.delete(this.outputs, key);
      for (const [id, v] of held.balances) add(unallocated, id, v);
    }
    const moved = new Set(unallocated.keys());
    const allocated: Map<string, bigint>[] = tx.vout.map(() => new Map());
    const burned = new Map<string, bigint>();
    let etched: { id: string; rune: bigint } | null = null;

    if (artifact) {
      if (artifact.mint) {
        const minted = this.mint(artifact.mint, block.height);
        if (minted !== null) add(unallocated, runeIdKey(artifact.mint), minted);
      }
      etched = this.etched(txIndex, tx, artifact, block.height);
      if (artifact.kind === 'runestone') {
        if (etched) add(unallocated, etched.id, artifact.etching!.premine ?? 0n);
        for (const edict of artifact.edicts) {
          const id = edict.id.block === 0n && edict.id.tx === 0n ? etched?.id : runeIdKey(edict.id);
          if (!id) continue;
          if (!unallocated.has(id)) continue;
          const give = (amount: bigint, output: number) => {
            if (amount <= 0n) return;
            unallocated.set(id, unallocated.get(id)! - amount);
            add(allocated[output]!, id, amount);
          };
          if (edict.output === tx.vout.length) {
            const destinations = tx.vout.flatMap((o, k) => (ownerOf(o) === null ? [] : [k]));
            if (!destinations.length) continue;
            if (edict.amount === 0n) {
              const each = unallocated.get(id)! / BigInt(destinations.length);
              const remainder = Number(unallocated.get(id)! % BigInt(destinations.length));
              destinations.forEach((k, n) => give(n < remainder ? each + 1n : each, k));
            } else {
              for (const k of destinations) give(edict.amount < unallocated.get(id)! ? edict.amount : unallocated.get(id)!, k);
            }
          } else {
            const left = unallocated.get(id)!;
            give(edict.amount === 0n ? left : edict.amount < left ? edict.amount : left, edict.output);
          }
        }
      }
      if (etched) this.create(tx, txIndex, block, artifact, etched);
    }

    if (artifact?.kind === 'cenotaph') {
      for (const [id, v] of unallocated) add(burned, id, v);
    } else {
      const pointer = artifact?.kind === 'runestone' ? artifact.pointer : null;
      const fallback = tx.vout.findIndex((o) => ownerOf(o) !== null);
      const target = pointer ?? (fallback >= 0 ? fallback : null);
      for (const [id, v] of unallocated) {
        if (v <= 0n) continue;
        if (target === null) add(burned, id, v);
        else add(allocated[target]!, id, v);
      }
    }

    allocated.forEach((balances, vout) => {
      if (!balances.size) return;
      const owner = ownerOf(tx.vout[vout]!);
      if (owner === null) {
        for (const [id, v] of balances) add(burned, id, v);
        return;
      }
      j.set(this.outputs, `${tx.txid}:${vout}`, { owner, balances });
    });
    for (const [id, v] of burned) {
      const e = this.entries.get(id);
      if (e && v > 0n) j.assign(e, 'burned', e.burned + v);
    }
    const mintedHere = artifact?.mint ? runeIdKey(artifact.mint) : null;
    for (const id of moved) {
      const e = this.entries.get(id);
      if (e && id !== mintedHere) j.assign(e, 'transfers', e.transfers + 1);
    }
  }

  /** A mint of `id` at `height`: its amount when the rune's terms allow one more (counted even in a cenotaph), else null. */
  private mint(id: RuneId, height: number): bigint | null {
    const e = this.entries.get(runeIdKey(id));
    if (!e || unmintableReason(e, height)) return null;
    this.journal.assign(e, 'mints', e.mints + 1);
    this.journal.assign(e, 'lastMintHeight', height);
    return e.terms!.amount ?? 0n;
  }

  /** The rune a transaction etches, if its etching is valid (ord's RuneUpdater::etched). */
  private etched(txIndex: number, tx: EsploraTx, artifact: Artifact, height: number): { id: string; rune: bigint } | null {
    let rune: bigint | null;
    if (artifact.kind === 'runestone') {
      if (!artifact.etching) return null;
      rune = artifact.etching.rune;
    } else {
      if (artifact.etching === null) return null;
      rune = artifact.etching;
    }
    if (rune === null) rune = reservedRune(BigInt(height), BigInt(txIndex));
    else if (rune >= RESERVED_RUNE || this.byName.has(rune) || !this.commits(tx, rune, height)) return null;
    return { id: runeIdKey({ block: BigInt(height), tx: BigInt(txIndex) }), rune };
  }

  /** Whether an input reveals the name's commitment in a tapscript spending a taproot output with enough confirmations. */
  private commits(tx: EsploraTx, rune: bigint, height: number): boolean {
    const commitment = runeCommitment(rune);
    for (const vin of tx.vin) {
      const script = tapscriptOf(vin.witness);
      if (!script) continue;
      const ins = instructions(script);
      if (!ins) continue;
      const revealed = ins.some((x) => isPush(x) && x.push.length === commitment.length && x.push.every((b, k) => b === commitment[k]));
      if (!revealed || vin.prevout?.scriptpubkey_type !== 'v1_p2tr') continue;
      const young = this.recentTxs.find((b) => b.txids.has(vin.txid));
      // Confirmations = height - commit height + 1; a commit older than the blocks kept is old enough.
      if (!young || height - young.height + 1 >= COMMIT_CONFIRMATIONS) return true;
    }
    return false;
  }

  private create(tx: EsploraTx, txIndex: number, block: EsploraBlock, artifact: Artifact, etched: { id: string; rune: bigint }): void {
    const e = artifact.kind === 'runestone' ? artifact.etching! : null;
    const entry: RuneEntry = {
      id: etched.id, block: block.height, txIndex, rune: etched.rune,
      spacedName: spacedRuneName(etched.rune, e?.spacers ?? 0),
      divisibility: e?.divisibility ?? 0, symbol: e?.symbol ?? null, premine: e?.premine ?? 0n, terms: e?.terms ?? null, turbo: e?.turbo ?? false,
      etchingTxid: tx.txid, time: block.timestamp, cenotaph: artifact.kind === 'cenotaph',
      mints: 0, burned: 0n, transfers: 0, lastMintHeight: null,
    };
    this.journal.set(this.entries, etched.id, entry);
    this.journal.set(this.byName, etched.rune, etched.id);
  }
}
