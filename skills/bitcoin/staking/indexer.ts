/**
 * The Bitcoin staking index (Babylon's phase-1 format): a staking transaction carries an
 * OP_RETURN of exactly 71 bytes, "bbn1" | version (u8) | staker key (32, x-only) | finality
 * provider key (32) | staking time (u16 big-endian, blocks), beside the taproot staking output.
 * The stake ends when that output is spent; the leaf the spend reveals says how:
 * - `<staker> OP_CHECKSIGVERIFY <time> OP_CHECKSEQUENCEVERIFY`: withdrawn after the timelock;
 * - a leaf naming the finality provider's key: slashed;
 * - any other leaf (staker + covenant signatures): unbonded early, into an unbonding output
 *   whose own withdrawal later completes the exit.
 */
import { p2tr } from '@scure/btc-signer';
import type { EsploraBlock, EsploraTx } from '../../../chain/esplora.js';
import { JournaledObserver } from '../observers/journal.js';
import { bytesToHex, hexToBytes, instructions, isOp, isPush, OP_CHECKSEQUENCEVERIFY, OP_CHECKSIGVERIFY, OP_RETURN, scriptNumber, tapscriptOf } from '../observers/script.js';

export const STAKING_OBSERVER = 'staking';
export const STAKING_TAG = 'bbn1';
const PAYLOAD_BYTES = 4 + 1 + 32 + 32 + 2;

export interface StakingData {
  readonly version: number;
  readonly stakerPk: string;
  readonly finalityProviderPk: string;
  readonly stakingTime: number;
}

/** The staking OP_RETURN's fields, or null when the script is not one. */
export function stakingDataOf(scriptHex: string): StakingData | null {
  let script: Uint8Array;
  try {
    script = hexToBytes(scriptHex);
  } catch {
    return null;
  }
  const ins = instructions(script);
  if (!ins || ins.length !== 2 || !isOp(ins[0], OP_RETURN) || !isPush(ins[1])) return null;
  const d = ins[1].push;
  if (d.length !== PAYLOAD_BYTES || new TextDecoder().decode(d.subarray(0, 4)) !== STAKING_TAG) return null;
  return {
    version: d[4]!,
    stakerPk: bytesToHex(d.subarray(5, 37)),
    finalityProviderPk: bytesToHex(d.subarray(37, 69)),
    stakingTime: (d[69]! << 8) | d[70]!,
  };
}

export type StakeState = 'active' | 'unbonding' | 'unbonded' | 'withdrawn' | 'slashed';

export interface Stake {
  readonly txid: string;
  readonly vout: number;
  readonly sats: number;
  readonly stakerPk: string;
  readonly finalityProviderPk: string;
  /** Blocks. */
  readonly stakingTime: number;
  readonly height: number;
  readonly time: number;
  /** The address that funded the stake (the staking transaction's first input). */
  readonly funder: string | null;
  state: StakeState;
  /** When the staking output was spent (unbonding, withdrawal or slashing). */
  endedAt: number | null;
  endTxid: string | null;
  /** An early unbonding: when its unbonding output was withdrawn. */
  unbondedAt: number | null;
}

/** How a spend of the staking output left it, from the leaf script its witness reveals. */
export function exitPath(witness: readonly string[] | undefined, finalityProviderPk: string): 'timelock' | 'slashing' | 'unbonding' {
  const script = tapscriptOf(witness);
  const ins = script ? instructions(script) : null;
  if (!ins) return 'unbonding';
  if (ins.some((x) => isPush(x) && bytesToHex(x.push) === finalityProviderPk)) return 'slashing';
  const n = ins.length;
  if (n === 4 && isPush(ins[0]) && ins[0].push.length === 32 && isOp(ins[1], OP_CHECKSIGVERIFY) && scriptNumber(ins[2]) !== null && isOp(ins[3], OP_CHECKSEQUENCEVERIFY)) return 'timelock';
  return 'unbonding';
}

/** The staker's own key-path address (BIP86), which a staking transaction's change may pay. */
function keyPathScript(xonlyHex: string): string | null {
  try {
    return bytesToHex(p2tr(hexToBytes(xonlyHex)).script);
  } catch {
    return null;
  }
}

export class StakingIndex extends JournaledObserver {
  readonly name = STAKING_OBSERVER;
  private readonly stakeMap = new Map<string, Stake>();
  /** Outpoint (txid:vout) of a live staking or unbonding output → its stake's txid. */
  private readonly watched = new Map<string, { stake: string; kind: 'staking' | 'unbonding' }>();

  protected readBlock(block: EsploraBlock, txs: readonly EsploraTx[]): void {
    for (const tx of txs) this.onTx(tx, block);
  }

  protected clear(): void {
    this.stakeMap.clear();
    this.watched.clear();
  }

  stakes(): readonly Stake[] {
    return [...this.stakeMap.values()];
  }

  private onTx(tx: EsploraTx, block: EsploraBlock): void {
    const j = this.journal;
    for (const vin of tx.vin) {
      if (vin.is_coinbase) continue;
      const key = `${vin.txid}:${vin.vout}`;
      const w = this.watched.get(key);
      if (!w) continue;
      j.delete(this.watched, key);
      const s = this.stakeMap.get(w.stake)!;
      if (w.kind === 'unbonding') {
        j.assign(s, 'state', 'unbonded');
        j.assign(s, 'unbondedAt', block.height);
        continue;
      }
      const path = exitPath(vin.witness, s.finalityProviderPk);
      j.assign(s, 'endedAt', block.height);
      j.assign(s, 'endTxid', tx.txid);
      if (path === 'timelock') j.assign(s, 'state', 'withdrawn');
      else if (path === 'slashing') j.assign(s, 'state', 'slashed');
      else {
        j.assign(s, 'state', 'unbonding');
        // The unbonding transaction's one output holds the stake until its own timelock passes.
        const out = tx.vout.findIndex((o) => o.scriptpubkey_type === 'v1_p2tr');
        if (out >= 0) j.set(this.watched, `${tx.txid}:${out}`, { stake: s.txid, kind: 'unbonding' });
      }
    }
    const data = tx.vout.map((o) => (o.scriptpubkey.startsWith('6a') ? stakingDataOf(o.scriptpubkey) : null)).find((d) => d !== null);
    if (!data) return;
    const own = keyPathScript(data.stakerPk);
    const vout = tx.vout.findIndex((o) => o.scriptpubkey_type === 'v1_p2tr' && o.scriptpubkey !== own);
    if (vout < 0) return;
    const stake: Stake = {
      txid: tx.txid, vout, sats: tx.vout[vout]!.value, stakerPk: data.stakerPk, finalityProviderPk: data.finalityProviderPk, stakingTime: data.stakingTime,
      height: block.height, time: block.timestamp, funder: tx.vin[0]?.prevout?.scriptpubkey_address ?? null,
      state: 'active', endedAt: null, endTxid: null, unbondedAt: null,
    };
    j.set(this.stakeMap, tx.txid, stake);
    j.set(this.watched, `${tx.txid}:${vout}`, { stake: tx.txid, kind: 'staking' });
  }
}
