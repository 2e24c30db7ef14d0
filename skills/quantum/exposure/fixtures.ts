/**
 * Test support: a small hand-written Bitcoin chain behind the `Esplora` interface, with real keys
 * and real output scripts (so a spend's witness or scriptSig carries a key that hashes to its
 * address). Address stats, UTXOs and history pages follow Esplora's rules: history newest first,
 * mempool then 25 confirmed per page.
 */
import { createHash } from 'node:crypto';
import { secp256k1, schnorr } from '@noble/curves/secp256k1';
import { Address, NETWORK, OutScript, p2pkh, p2tr, p2wpkh } from '@scure/btc-signer';
import type { Esplora, EsploraBlock, EsploraTx, EsploraVout } from '../../../chain/esplora.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** A deterministic key from a label, with its addresses. */
export function fixtureKey(label: string) {
  const secret = new Uint8Array(createHash('sha256').update(`key:${label}`).digest());
  const pub = secp256k1.getPublicKey(secret, true);
  return {
    pub: hex(pub),
    pubUncompressed: hex(secp256k1.getPublicKey(secret, false)),
    p2wpkh: p2wpkh(pub).address!,
    p2pkh: p2pkh(pub).address!,
    p2tr: p2tr(schnorr.getPublicKey(secret)).address!,
    /** A P2PK output script (the key itself, then OP_CHECKSIG). */
    p2pkScript: `21${hex(pub)}ac`,
  };
}

export interface FixtureOut {
  /** An address, or `script:<hex>` for an output without one (P2PK, OP_RETURN). */
  readonly to: string;
  readonly value: number;
}

export interface FixtureTx {
  readonly name: string;
  /** `name:vout` spent, each with what the spend shows (witness items or scriptSig, hex). */
  readonly vin?: readonly { readonly spends: string; readonly witness?: readonly string[]; readonly scriptsig?: string }[];
  readonly vout: readonly FixtureOut[];
}

const TYPE_OF: Record<string, string> = { pkh: 'p2pkh', sh: 'p2sh', wpkh: 'v0_p2wpkh', wsh: 'v0_p2wsh', tr: 'v1_p2tr' };

export function fixtureVout(o: FixtureOut): EsploraVout {
  if (o.to.startsWith('script:')) {
    const script = o.to.slice(7);
    const type = script.startsWith('6a') ? 'op_return' : script.endsWith('ac') && (script.length === 70 || script.length === 134) ? 'p2pk' : 'unknown';
    return { scriptpubkey: script, scriptpubkey_asm: '', scriptpubkey_type: type, value: o.value };
  }
  const decoded = Address(NETWORK).decode(o.to);
  return { scriptpubkey: hex(OutScript.encode(decoded)), scriptpubkey_asm: '', scriptpubkey_type: TYPE_OF[decoded.type]!, scriptpubkey_address: o.to, value: o.value };
}

export class FixtureEsplora implements Esplora {
  readonly baseUrl = 'fixture://esplora';
  readonly mined: { block: EsploraBlock; txs: EsploraTx[] }[] = [];
  readonly mempoolTxs: EsploraTx[] = [];
  private readonly byName = new Map<string, EsploraTx>();
  /** Calls per method (tests check what was read). */
  readonly calls = new Map<string, number>();

  /** Mines a block of these transactions at `time` (a coinbase is not added: give one when needed). */
  mine(time: number, txs: readonly FixtureTx[]): this {
    const height = this.mined.length;
    const id = sha(`block:${height}:${time}`);
    const built = txs.map((t) => this.build(t, { confirmed: true, block_height: height, block_hash: id, block_time: time }));
    const block: EsploraBlock = {
      id, height, version: 0x20000000, timestamp: time, tx_count: built.length, size: 1000, weight: 4000,
      merkle_root: sha(id), previousblockhash: this.mined.at(-1)?.block.id ?? null, nonce: 0, bits: 0x207fffff,
    };
    this.mined.push({ block, txs: built });
    return this;
  }

  pend(txs: readonly FixtureTx[]): this {
    for (const t of txs) this.mempoolTxs.push(this.build(t, { confirmed: false }));
    return this;
  }

  txid(name: string): string {
    return this.byName.get(name)!.txid;
  }

  private build(t: FixtureTx, status: EsploraTx['status']): EsploraTx {
    const vin = (t.vin ?? []).map((i) => {
      const [name, vout] = i.spends.split(':');
      const prev = this.byName.get(name!);
      if (!prev) throw new Error(`fixture spends unknown ${i.spends}`);
      return {
        txid: prev.txid, vout: Number(vout), prevout: prev.vout[Number(vout)]!, scriptsig: i.scriptsig ?? '', scriptsig_asm: '',
        ...(i.witness && { witness: [...i.witness] }), is_coinbase: false, sequence: 0xfffffffd,
      };
    });
    const coinbase = !vin.length;
    const tx: EsploraTx = {
      txid: sha(`tx:${t.name}`), version: 2, locktime: 0,
      vin: coinbase ? [{ txid: '00'.repeat(32), vout: 0xffffffff, prevout: null, scriptsig: '', scriptsig_asm: '', is_coinbase: true, sequence: 0xffffffff }] : vin,
      vout: t.vout.map(fixtureVout), size: 200, weight: 800,
      fee: coinbase ? 0 : vin.reduce((s, i) => s + i.prevout.value, 0) - t.vout.reduce((s, o) => s + o.value, 0),
      status,
    };
    this.byName.set(t.name, tx);
    return tx;
  }

  private count(name: string) {
    this.calls.set(name, (this.calls.get(name) ?? 0) + 1);
  }

  private allTxs(): EsploraTx[] {
    return [...this.mined.flatMap((b) => b.txs), ...this.mempoolTxs];
  }

  private touches(t: EsploraTx, a: string) {
    return t.vout.some((o) => o.scriptpubkey_address === a) || t.vin.some((i) => i.prevout?.scriptpubkey_address === a);
  }

  private spender(txid: string, vout: number) {
    return this.allTxs().find((t) => t.vin.some((i) => i.txid === txid && i.vout === vout && !i.is_coinbase));
  }

  tipHeight = async () => this.mined.length - 1;
  tipHash = async () => this.mined.at(-1)!.block.id;
  blockHashAt = async (h: number) => this.mined[h]?.block.id ?? null;
  block = async (hash: string) => this.mined.find((b) => b.block.id === hash)?.block ?? null;
  blockTxs = async (hash: string, start = 0) => this.mined.find((b) => b.block.id === hash)?.txs.slice(start, start + 25) ?? [];
  blockTxids = async (hash: string) => this.mined.find((b) => b.block.id === hash)?.txs.map((t) => t.txid) ?? [];
  tx = async (txid: string) => this.allTxs().find((t) => t.txid === txid) ?? null;
  outspends = async () => [];
  address = async (a: string) => {
    this.count('address');
    const zero = () => ({ funded_txo_count: 0, funded_txo_sum: 0, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 0 });
    const chain = zero();
    const mempool = zero();
    for (const t of this.allTxs()) {
      if (!this.touches(t, a)) continue;
      const s = t.status.confirmed ? chain : mempool;
      s.tx_count++;
      for (const o of t.vout) if (o.scriptpubkey_address === a) (s.funded_txo_count++, (s.funded_txo_sum += o.value));
      for (const i of t.vin) if (i.prevout?.scriptpubkey_address === a) (s.spent_txo_count++, (s.spent_txo_sum += i.prevout.value));
    }
    return { address: a, chain_stats: chain, mempool_stats: mempool };
  };
  addressUtxo = async (a: string) => {
    this.count('addressUtxo');
    return this.allTxs().flatMap((t) => t.vout.flatMap((o, vout) => (o.scriptpubkey_address === a && !this.spender(t.txid, vout) ? [{ txid: t.txid, vout, value: o.value, status: t.status }] : [])));
  };
  addressTxs = async (a: string, after?: string) => {
    this.count('addressTxs');
    const confirmed = this.mined.flatMap((b) => b.txs).filter((t) => this.touches(t, a)).reverse();
    const pending = this.mempoolTxs.filter((t) => this.touches(t, a)).reverse();
    if (after) {
      const k = confirmed.findIndex((t) => t.txid === after);
      return k < 0 ? [] : confirmed.slice(k + 1, k + 26);
    }
    return [...pending, ...confirmed.slice(0, 25)];
  };
  mempool = async () => ({ count: this.mempoolTxs.length, vsize: 0, total_fee: 0, fee_histogram: [] });
  mempoolRecent = async () => [];
  mempoolTxids = async () => this.mempoolTxs.map((t) => t.txid);
  feeEstimates = async () => ({ '1': 20, '2': 15, '3': 12, '6': 8, '144': 2 });
}

/** A DER-looking signature placeholder: the engines never verify signatures, only read keys. */
export const FAKE_SIG = `30440220${'11'.repeat(32)}0220${'22'.repeat(32)}01`;

/** The scriptSig of a P2PKH spend: <sig> <pubkey>. */
export const p2pkhScriptSig = (pub: string) => `${(FAKE_SIG.length / 2).toString(16)}${FAKE_SIG}${(pub.length / 2).toString(16)}${pub}`;
