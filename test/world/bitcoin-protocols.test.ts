/**
 * The embedded chain's BRC-20 inscriptions, runes and staking transactions, read back through
 * the Esplora API and decoded here from the public formats (not with the world's encoders),
 * match the world's labels and follow their protocols' rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EsploraClient, type EsploraTx } from '../../chain/esplora.js';
import { startEmbeddedBitcoin, type EmbeddedBitcoin } from '../../world/bitcoin/index.js';
import { ReferencePaths } from '../../world/reference.js';

const SEED = 'btc-protocols-test';
const ORIGIN = 1_790_000_000;

let btc: EmbeddedBitcoin;
let api: EsploraClient;
beforeAll(async () => {
  btc = await startEmbeddedBitcoin({ seed: SEED, days: 2, origin: ORIGIN, reference: new ReferencePaths(SEED, ORIGIN), port: 0, liveBlocks: false });
  api = new EsploraClient(btc.url);
}, 60_000);
afterAll(() => btc?.close());

/** Script → its data pushes and opcodes, in order. */
function ops(hex: string): ({ push: Buffer } | { op: number })[] {
  const s = Buffer.from(hex, 'hex');
  const out: ({ push: Buffer } | { op: number })[] = [];
  for (let i = 0; i < s.length;) {
    const op = s[i++]!;
    let len = -1;
    if (op >= 1 && op <= 75) len = op;
    else if (op === 0x4c) len = s[i++]!;
    else if (op === 0x4d) {
      len = s.readUInt16LE(i);
      i += 2;
    }
    if (len >= 0) {
      out.push({ push: s.subarray(i, i + len) });
      i += len;
    } else out.push({ op });
  }
  return out;
}

/** The inscription in a tapscript: content type and body (ord's envelope). */
function envelope(leafHex: string): { contentType: string; body: string } | null {
  const o = ops(leafHex);
  const start = o.findIndex((x, k) => 'op' in x && x.op === 0 && 'op' in o[k + 1]! && (o[k + 1] as { op: number }).op === 0x63 && 'push' in o[k + 2]! && (o[k + 2] as { push: Buffer }).push.toString() === 'ord');
  if (start < 0) return null;
  let k = start + 3;
  let contentType = '';
  const body: Buffer[] = [];
  while (k < o.length && !('op' in o[k]! && (o[k] as { op: number }).op === 0x68)) {
    const x = o[k]!;
    const isTag1 = ('push' in x && x.push.length === 1 && x.push[0] === 1) || ('op' in x && x.op === 0x51);
    if (isTag1) {
      contentType = (o[k + 1] as { push: Buffer }).push.toString();
      k += 2;
    } else if ('op' in x && x.op === 0) {
      k++;
      while (k < o.length && 'push' in o[k]!) body.push((o[k++] as { push: Buffer }).push);
    } else k++;
  }
  return { contentType, body: Buffer.concat(body).toString() };
}

/** A runestone's integers (OP_RETURN OP_13, pushes concatenated, LEB128). */
function runestone(tx: EsploraTx): bigint[] | null {
  const out = tx.vout.find((v) => v.scriptpubkey.startsWith('6a5d'));
  if (!out) return null;
  const payload = Buffer.concat(ops(out.scriptpubkey.slice(4)).map((x) => ('push' in x ? x.push : Buffer.alloc(0))));
  const ints: bigint[] = [];
  let v = 0n;
  let shift = 0n;
  for (const b of payload) {
    v |= BigInt(b & 0x7f) << shift;
    shift += 7n;
    if (!(b & 0x80)) {
      ints.push(v);
      v = 0n;
      shift = 0n;
    }
  }
  return ints;
}

function fields(ints: bigint[]): Map<number, bigint[]> {
  const m = new Map<number, bigint[]>();
  for (let i = 0; i + 1 < ints.length; i += 2) {
    const tag = Number(ints[i]);
    if (tag === 0) break;
    m.set(tag, [...(m.get(tag) ?? []), ints[i + 1]!]);
  }
  return m;
}

function runeValue(name: string): bigint {
  let n = 0n;
  for (let i = 0; i < name.length; i++) {
    if (i > 0) n += 1n;
    n = n * 26n + BigInt(name.charCodeAt(i) - 65);
  }
  return n;
}

async function position(tx: EsploraTx): Promise<number> {
  return (await api.blockTxids(tx.status.block_hash!)).indexOf(tx.txid);
}

describe('embedded bitcoin protocols', () => {
  it('BRC-20: every labelled inscription is an ord envelope in its reveal witness, with the labelled JSON, landing on its owner', async () => {
    const labels = btc.labels.inscriptions;
    expect(new Set(labels.filter((i) => i.op === 'deploy').map((i) => i.ticker)).size).toBe(4);
    expect(labels.filter((i) => i.op === 'mint').length).toBeGreaterThan(10);
    expect(labels.filter((i) => i.sentTo).length).toBeGreaterThan(0);
    for (const i of labels) {
      const tx = (await api.tx(i.txid))!;
      expect(tx.status.block_height).toBe(i.height);
      const w = tx.vin[0]!.witness!;
      expect(tx.vin[0]!.prevout!.scriptpubkey_type).toBe('v1_p2tr');
      const env = envelope(w[w.length - 2]!)!;
      expect(env.contentType).toBe('text/plain;charset=utf-8');
      const json = JSON.parse(env.body) as Record<string, string>;
      expect(json).toMatchObject({ p: 'brc-20', op: i.op, tick: i.ticker });
      expect(i.op === 'deploy' ? json.max : json.amt).toBe(i.amount);
      expect(tx.vout[0]!.scriptpubkey_address).toBe(i.owner);
      if (i.sentTxid) {
        const sent = (await api.tx(i.sentTxid))!;
        expect(sent.vin[0]).toMatchObject({ txid: i.txid, vout: 0 });
        expect(sent.vout[0]!.scriptpubkey_address).toBe(i.sentTo);
      }
    }
    // BRC-20's rules, recomputed from the labels: valid mints stay within lim and max; invalid ones exceed lim.
    for (const d of labels.filter((i) => i.op === 'deploy')) {
      const mints = labels.filter((i) => i.op === 'mint' && i.ticker === d.ticker);
      for (const m of mints) expect(BigInt(m.amount) <= BigInt(d.lim!)).toBe(m.valid);
      expect(mints.filter((m) => m.valid).reduce((a, m) => a + BigInt(m.amount), 0n) <= BigInt(d.amount)).toBe(true);
      expect(mints.every((m) => m.height > d.height)).toBe(true);
    }
  });

  it('runes: etchings carry the labelled runestone, reveal a commitment aged six blocks, and mints name the rune by block:tx within its cap', async () => {
    const runes = btc.labels.runes;
    expect(runes.length).toBe(3);
    for (const r of runes) {
      const etching = (await api.tx(r.etchingTxid))!;
      const f = fields(runestone(etching)!);
      expect(f.get(2)![0]! & 1n).toBe(1n);
      expect(f.get(4)![0]).toBe(runeValue(r.name));
      expect(Number(f.get(1)?.[0] ?? 0n)).toBe(r.divisibility);
      expect((f.get(6)?.[0] ?? 0n).toString()).toBe(r.premine);
      expect(f.get(8)![0]!.toString()).toBe(r.cap);
      expect(f.get(10)![0]!.toString()).toBe(r.amount);
      expect(String.fromCodePoint(Number(f.get(5)![0]))).toBe(r.symbol);
      expect(`${etching.status.block_height}:${await position(etching)}`).toBe(r.id);
      // The commitment: the name's integer, little-endian, pushed in the tapscript of a P2TR input confirmed ≥ 6 blocks before.
      const w = etching.vin[0]!.witness!;
      let commitment = runeValue(r.name).toString(16);
      if (commitment.length % 2) commitment = `0${commitment}`;
      expect(w[w.length - 2]).toContain(Buffer.from(commitment, 'hex').reverse().toString('hex'));
      const commit = (await api.tx(etching.vin[0]!.txid))!;
      expect(commit.txid).toBe(r.commitTxid);
      expect(etching.status.block_height! - commit.status.block_height! + 1).toBeGreaterThanOrEqual(6);
      expect(r.mints.length).toBeLessThanOrEqual(Number(r.cap));
      for (const m of r.mints.slice(0, 5)) {
        const tx = (await api.tx(m.txid))!;
        const mf = fields(runestone(tx)!);
        expect(mf.get(20)!.map(String).join(':')).toBe(r.id);
        expect(tx.vout[1]!.scriptpubkey_address).toBe(m.to);
      }
    }
    expect(runes.reduce((a, r) => a + r.mints.length, 0)).toBeGreaterThan(10);
  });

  it('staking: each stake has the bbn1 OP_RETURN of its labels, and unbondings/withdrawals spend it as the labels say', async () => {
    const stakes = btc.labels.staking;
    expect(stakes.length).toBeGreaterThan(3);
    for (const s of stakes) {
      const tx = (await api.tx(s.txid))!;
      expect(tx.vout[0]).toMatchObject({ scriptpubkey_type: 'v1_p2tr', value: s.sats });
      const ret = tx.vout.find((v) => v.scriptpubkey_type === 'op_return')!;
      const data = Buffer.from(ret.scriptpubkey.slice(4), 'hex');
      expect(data.length).toBe(71);
      expect(data.subarray(0, 4).toString()).toBe('bbn1');
      expect(data.subarray(5, 37).toString('hex')).toBe(s.stakerPk);
      expect(data.subarray(37, 69).toString('hex')).toBe(s.finalityProviderPk);
      expect(data.readUInt16BE(69)).toBe(s.timelock);
      const [out] = await api.outspends(s.txid);
      if (s.unbondedAt !== null) {
        expect(out!.txid).toBe(s.unbondingTxid);
        const u = (await api.tx(s.unbondingTxid!))!;
        expect(u.vin[0]!.witness).toHaveLength(4); // covenant and staker signatures, leaf, control block
        expect(u.status.block_height).toBe(s.unbondedAt);
      } else if (s.withdrawnAt !== null) {
        const wtx = (await api.tx(s.withdrawTxid!))!;
        expect(out!.txid).toBe(s.withdrawTxid);
        expect(wtx.vin[0]!.sequence).toBe(s.timelock);
        expect(s.withdrawnAt - s.height).toBeGreaterThanOrEqual(s.timelock);
      } else if (out!.spent) {
        // Spent in the mempool only: not yet in the labels.
        expect(out!.status?.confirmed).toBe(false);
      }
    }
    expect(stakes.some((s) => s.unbondedAt !== null)).toBe(true);
  });
});
