/**
 * The Esplora HTTP API (Blockstream's JSON shapes, amounts in satoshis) over the world's chain,
 * plus mempool.space's /v1/fees/recommended and /v1/fees/mempool-blocks. It can serve the chain
 * as of an earlier height (evaluation: what a client would have seen then).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toHex } from './bytes.js';
import { ChainView, feerateOf, type BitcoinChain, type ChainBlock, type ChainTx } from './chain.js';
import { difficultyOf, serializeHeader } from './block.js';
import { feeEstimates, feeHistogram, projectBlocks } from './fees.js';
import { addressScript, scriptAddress, scriptAsm, scriptType } from './script.js';
import { vsizeOf } from './tx.js';

const PAGE = 25;
const MEMPOOL_PAGE = 50;

class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const notFound = (what: string) => new HttpError(404, `${what} not found`);

export interface EsploraServerOptions {
  readonly host?: string;
  readonly port?: number;
  /** Serve the chain as it was right after this block (default: the live tip). */
  readonly asOfHeight?: number;
}

export async function serveEsplora(chain: BitcoinChain, o: EsploraServerOptions = {}): Promise<{ url: string; close(): Promise<void> }> {
  const api = new EsploraApi(chain, o.asOfHeight);
  const server = createServer((req, res) => api.handle(req, res));
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, o.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

type StaticTx = Omit<EsploraTxJson, 'status'>;
interface EsploraTxJson {
  txid: string; version: number; locktime: number; vin: unknown[]; vout: unknown[]; size: number; weight: number; fee: number; status: unknown;
}

export class EsploraApi {
  /** The parts of a tx's JSON that never change. */
  private readonly txCache = new Map<string, StaticTx>();
  private readonly minFeerates = new Map<string, number | null>();

  constructor(readonly chain: BitcoinChain, readonly asOfHeight?: number) {}

  private view(): ChainView {
    return new ChainView(this.chain, this.asOfHeight);
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, 'Method not allowed');
      const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
      const out = this.route(path.split('/').filter(Boolean).map(decodeURIComponent));
      const body = typeof out === 'string' ? out : JSON.stringify(out);
      res.writeHead(200, { 'content-type': typeof out === 'string' ? 'text/plain' : 'application/json', 'access-control-allow-origin': '*' });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      const status = err instanceof HttpError ? err.status : 500;
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(err instanceof Error ? err.message : 'error');
    }
  }

  route(p: string[]): unknown {
    const v = this.view();
    const [a, b, c, d, e] = p;
    switch (a) {
      case 'blocks':
        if (b === 'tip' && c === 'height' && !d) return String(v.tipHeight);
        if (b === 'tip' && c === 'hash' && !d) return v.tip.hash;
        if (!b || (isHeight(b) && !c)) return this.blockList(v, b ? Number(b) : v.tipHeight);
        break;
      case 'block-height':
        if (b && isHeight(b) && !c) {
          const block = this.chain.blocks[Number(b)];
          if (!block || block.height > v.tipHeight) throw notFound('Block');
          return block.hash;
        }
        break;
      case 'block': {
        if (!b) break;
        const block = v.block(hash(b)) ?? this.missing('Block');
        if (!c) return this.blockJson(block);
        if (c === 'header' && !d) return toHex(serializeHeader(block.header));
        if (c === 'status' && !d) return { in_best_chain: true, height: block.height, next_best: this.chain.blocks[block.height + 1] && block.height < v.tipHeight ? this.chain.blocks[block.height + 1]!.hash : null };
        if (c === 'txids' && !d) return block.txids;
        if (c === 'txid' && d && isHeight(d) && !e) return block.txids[Number(d)] ?? this.missing('Transaction');
        if (c === 'txs' && !e) {
          const start = d ? Number(d) : 0;
          if (!Number.isInteger(start) || start < 0 || start % PAGE !== 0) throw new HttpError(400, `start index must be a multipication of ${PAGE}`);
          if (start >= block.txids.length && start > 0) throw new HttpError(400, 'start index out of range');
          return block.txids.slice(start, start + PAGE).map((id) => this.txJson(v, this.chain.txs.get(id)!));
        }
        break;
      }
      case 'tx': {
        if (!b) break;
        const t = v.tx(hash(b)) ?? this.missing('Transaction');
        if (!c) return this.txJson(v, t);
        if (c === 'hex' && !d) return toHex(t.raw);
        if (c === 'status' && !d) return this.status(v, t);
        if (c === 'outspends' && !d) return t.tx.outputs.map((_, vout) => this.outspend(v, t.txid, vout));
        if (c === 'outspend' && d && isHeight(d) && !e) {
          if (Number(d) >= t.tx.outputs.length) throw notFound('Output');
          return this.outspend(v, t.txid, Number(d));
        }
        break;
      }
      case 'address': {
        if (!b) break;
        if (!addressScript(b)) throw new HttpError(400, 'Invalid Bitcoin address');
        if (!c) return this.addressJson(v, b);
        if (c === 'utxo' && !d) return this.utxos(v, b);
        if (c === 'txs' && !d) return this.addressTxs(v, b, true);
        if (c === 'txs' && d === 'mempool' && !e) return this.addressTxs(v, b, 'mempool');
        if (c === 'txs' && d === 'chain') return this.addressTxs(v, b, false, e ? hash(e) : undefined);
        break;
      }
      case 'mempool': {
        const pool = v.mempool();
        if (!b) {
          return { count: pool.length, vsize: pool.reduce((s, t) => s + vsizeOf(t.weight), 0), total_fee: pool.reduce((s, t) => s + t.fee, 0), fee_histogram: feeHistogram(pool) };
        }
        if (b === 'txids' && !c) return pool.map((t) => t.txid);
        if (b === 'recent' && !c) {
          return pool.slice(-10).reverse().map((t) => ({ txid: t.txid, fee: t.fee, vsize: vsizeOf(t.weight), value: t.tx.outputs.reduce((s, o) => s + o.value, 0) }));
        }
        break;
      }
      case 'fee-estimates':
        if (!b) return this.estimates(v);
        break;
      case 'v1':
        if (b === 'fees' && c === 'recommended' && !d) {
          const est = this.estimates(v);
          const up = (n: number) => Math.max(1, Math.ceil(est[String(n)]!));
          return { fastestFee: up(1), halfHourFee: up(3), hourFee: up(6), economyFee: up(144), minimumFee: 1 };
        }
        if (b === 'fees' && c === 'mempool-blocks' && !d) {
          return projectBlocks(v.mempool(), 8).map((pb) => {
            const rates = pb.txs.map(feerateOf).sort((x, y) => x - y);
            const pct = (q: number) => round(rates[Math.min(rates.length - 1, Math.floor(q * rates.length))] ?? 0);
            return {
              blockSize: pb.txs.reduce((s, t) => s + t.size, 0), blockVSize: pb.vsize, nTx: pb.txs.length, totalFees: pb.fees,
              medianFee: pct(0.5), feeRange: [pct(0), pct(0.1), pct(0.25), pct(0.5), pct(0.75), pct(0.9), pct(1)],
            };
          });
        }
        break;
    }
    throw new HttpError(404, 'Not found');
  }

  private missing(what: string): never {
    throw notFound(what);
  }

  private blockList(v: ChainView, from: number): unknown[] {
    const out: unknown[] = [];
    for (let h = Math.min(from, v.tipHeight); h >= 0 && out.length < 10; h--) out.push(this.blockJson(this.chain.blocks[h]!));
    return out;
  }

  private blockJson(b: ChainBlock): unknown {
    return {
      id: b.hash, height: b.height, version: b.header.version, timestamp: b.header.time, tx_count: b.txids.length, size: b.size, weight: b.weight,
      merkle_root: b.header.merkleRoot, previousblockhash: b.height > 0 ? b.header.prevHash : null, mediantime: b.mediantime,
      nonce: b.header.nonce, bits: b.header.bits, difficulty: difficultyOf(b.header.bits),
    };
  }

  private status(v: ChainView, t: ChainTx): unknown {
    if (!v.confirmed(t)) return { confirmed: false };
    const block = this.chain.blocks[t.height!]!;
    return { confirmed: true, block_height: block.height, block_hash: block.hash, block_time: block.header.time };
  }

  txJson(v: ChainView, t: ChainTx): EsploraTxJson {
    let s = this.txCache.get(t.txid);
    if (!s) {
      s = this.staticTx(t);
      if (this.txCache.size > 100_000) this.txCache.clear();
      this.txCache.set(t.txid, s);
    }
    return { ...s, status: this.status(v, t) };
  }

  private staticTx(t: ChainTx): StaticTx {
    const vin = t.tx.inputs.map((i) => {
      if (t.coinbase) {
        return { txid: i.prevTxid, vout: i.vout, prevout: null, scriptsig: toHex(i.scriptSig), scriptsig_asm: scriptAsm(i.scriptSig), ...(i.witness.length ? { witness: i.witness.map(toHex) } : {}), is_coinbase: true, sequence: i.sequence };
      }
      const prev = this.chain.output(i.prevTxid, i.vout)!;
      const prevType = scriptType(prev.script);
      const inner: Record<string, string> = {};
      if (prevType === 'v0_p2wsh' && i.witness.length) inner.inner_witnessscript_asm = scriptAsm(i.witness[i.witness.length - 1]!);
      if (prevType === 'v1_p2tr' && i.witness.length >= 2) {
        const hasAnnex = i.witness[i.witness.length - 1]![0] === 0x50;
        const items = hasAnnex ? i.witness.slice(0, -1) : i.witness;
        if (items.length >= 2) inner.inner_witnessscript_asm = scriptAsm(items[items.length - 2]!);
      }
      return {
        txid: i.prevTxid, vout: i.vout, prevout: voutJson(prev), scriptsig: toHex(i.scriptSig), scriptsig_asm: scriptAsm(i.scriptSig),
        ...(i.witness.length ? { witness: i.witness.map(toHex) } : {}), is_coinbase: false, sequence: i.sequence, ...inner,
      };
    });
    return { txid: t.txid, version: t.tx.version, locktime: t.tx.locktime, vin, vout: t.tx.outputs.map(voutJson), size: t.size, weight: t.weight, fee: t.fee };
  }

  private outspend(v: ChainView, txid: string, vout: number): unknown {
    const s = v.spender(txid, vout);
    if (!s) return { spent: false };
    return { spent: true, txid: s.txid, vin: s.vin, status: this.status(v, s.tx) };
  }

  /** Funded and spent outputs of an address, split into confirmed and mempool. */
  private addressJson(v: ChainView, address: string): unknown {
    const zero = () => ({ funded_txo_count: 0, funded_txo_sum: 0, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 0 });
    const chain = zero();
    const mempool = zero();
    for (const id of v.addressTxids(address)) {
      const t = this.chain.txs.get(id)!;
      const stats = v.confirmed(t) ? chain : mempool;
      stats.tx_count++;
      for (const o of t.tx.outputs) {
        if (scriptAddress(o.script) === address) {
          stats.funded_txo_count++;
          stats.funded_txo_sum += o.value;
        }
      }
      if (!t.coinbase) for (const i of t.tx.inputs) {
        const prev = this.chain.output(i.prevTxid, i.vout)!;
        if (scriptAddress(prev.script) === address) {
          stats.spent_txo_count++;
          stats.spent_txo_sum += prev.value;
        }
      }
    }
    return { address, chain_stats: chain, mempool_stats: mempool };
  }

  private utxos(v: ChainView, address: string): unknown[] {
    const out: unknown[] = [];
    for (const id of v.addressTxids(address)) {
      const t = this.chain.txs.get(id)!;
      t.tx.outputs.forEach((o, vout) => {
        if (scriptAddress(o.script) !== address || v.spender(id, vout)) return;
        out.push({ txid: id, vout, status: this.status(v, t), value: o.value });
      });
    }
    return out;
  }

  /** Newest first: mempool (up to 50) then 25 confirmed; or the confirmed page after `after`. */
  private addressTxs(v: ChainView, address: string, withMempool: boolean | 'mempool', after?: string): unknown[] {
    const ids = v.addressTxids(address).map((id) => this.chain.txs.get(id)!);
    const pending = ids.filter((t) => !v.confirmed(t)).sort((x, y) => y.seenAt - x.seenAt).slice(0, MEMPOOL_PAGE);
    if (withMempool === 'mempool') return pending.map((t) => this.txJson(v, t));
    const confirmed = ids.filter((t) => v.confirmed(t)).sort((x, y) => y.height! - x.height! || y.position! - x.position!);
    let start = 0;
    if (after) {
      const k = confirmed.findIndex((t) => t.txid === after);
      if (k < 0) return [];
      start = k + 1;
    }
    const page = confirmed.slice(start, start + PAGE).map((t) => this.txJson(v, t));
    return withMempool && !after ? [...pending.map((t) => this.txJson(v, t)), ...page] : page;
  }

  private estimates(v: ChainView): Record<string, number> {
    const recent: number[] = [];
    for (let h = v.tipHeight; h >= 0 && h > v.tipHeight - 6; h--) recent.push(this.minFeerate(this.chain.blocks[h]!) ?? 1);
    return feeEstimates(v.mempool(), recent);
  }

  private minFeerate(b: ChainBlock): number | null {
    if (!this.minFeerates.has(b.hash)) {
      const rates = b.txids.slice(1).map((id) => feerateOf(this.chain.txs.get(id)!));
      this.minFeerates.set(b.hash, rates.length ? Math.min(...rates) : null);
    }
    return this.minFeerates.get(b.hash)!;
  }
}

function voutJson(o: { script: Uint8Array; value: number }): unknown {
  const address = scriptAddress(o.script);
  return { scriptpubkey: toHex(o.script), scriptpubkey_asm: scriptAsm(o.script), scriptpubkey_type: scriptType(o.script), ...(address ? { scriptpubkey_address: address } : {}), value: o.value };
}

function isHeight(s: string): boolean {
  return /^\d{1,9}$/.test(s);
}

function hash(s: string): string {
  if (!/^[0-9a-fA-F]{64}$/.test(s)) throw new HttpError(400, 'Invalid hex string');
  return s.toLowerCase();
}

const round = (x: number) => Math.round(x * 100) / 100;
