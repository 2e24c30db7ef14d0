/**
 * The embedded chain's Esplora API, read with the client every engine uses (chain/esplora.ts),
 * answers what the chain holds: blocks and their pages, transactions with prevouts, outspends,
 * address stats that add up to the UTXOs, the mempool and its histogram, paging of an address's
 * history, the chain as of an earlier height, and the labels' exposed wallets really show their
 * keys in the API's data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { EsploraClient, type EsploraTx } from '../../chain/esplora.js';
import { startEmbeddedBitcoin, serveEsplora, type EmbeddedBitcoin } from '../../world/bitcoin/index.js';
import { ReferencePaths } from '../../world/reference.js';

const SEED = 'btc-api-test';
const ORIGIN = 1_790_000_000;

let btc: EmbeddedBitcoin;
let api: EsploraClient;
beforeAll(async () => {
  btc = await startEmbeddedBitcoin({ seed: SEED, days: 2, origin: ORIGIN, reference: new ReferencePaths(SEED, ORIGIN), port: 0, liveBlocks: false });
  api = new EsploraClient(btc.url);
}, 60_000);
afterAll(() => btc?.close());

const hash160 = (b: Uint8Array) => createHash('ripemd160').update(createHash('sha256').update(b).digest()).digest('hex');

describe('embedded Esplora API', () => {
  it('serves the tip, blocks and their transaction pages as the chain has them', async () => {
    const chain = btc.chain;
    expect(await api.tipHeight()).toBe(chain.tip.height);
    expect(await api.tipHash()).toBe(chain.tip.hash);
    const busiest = [...chain.blocks].sort((a, b) => b.txids.length - a.txids.length)[0]!;
    expect(await api.blockHashAt(busiest.height)).toBe(busiest.hash);
    const block = (await api.block(busiest.hash))!;
    expect(block).toMatchObject({ id: busiest.hash, height: busiest.height, tx_count: busiest.txids.length, merkle_root: busiest.header.merkleRoot, bits: 0x207fffff });
    expect(await api.blockTxids(busiest.hash)).toEqual(busiest.txids);
    const paged: EsploraTx[] = [];
    for (let start = 0; start < busiest.txids.length; start += 25) paged.push(...(await api.blockTxs(busiest.hash, start)));
    expect(paged.map((t) => t.txid)).toEqual(busiest.txids);
    expect(await api.block('00'.repeat(32))).toBeNull();
    expect(await api.blockHashAt(chain.tip.height + 1)).toBeNull();
    expect(await api.tx('11'.repeat(32))).toBeNull();
  });

  it('serves transactions with prevouts, fees, types and outspends', async () => {
    const chain = btc.chain;
    const types = new Set<string>();
    for (const id of chain.blocks.at(-30)!.txids.concat(chain.blocks[chain.blocks.length - 200]!.txids)) {
      const t = (await api.tx(id))!;
      const c = chain.txs.get(id)!;
      expect(t.fee).toBe(c.fee);
      expect(t.weight).toBe(c.weight);
      expect(t.status).toMatchObject({ confirmed: true, block_height: c.height });
      if (!c.coinbase) {
        const inSum = t.vin.reduce((a, i) => a + i.prevout!.value, 0);
        expect(inSum).toBe(t.vout.reduce((a, o) => a + o.value, 0) + t.fee);
      }
      for (const o of t.vout) types.add(o.scriptpubkey_type);
      const outspends = await api.outspends(id);
      expect(outspends).toHaveLength(t.vout.length);
      for (const [vout, s] of outspends.entries()) {
        const spender = chain.spends.get(`${id}:${vout}`);
        expect(s.spent).toBe(!!spender);
        if (spender) expect(s.txid).toBe(spender.txid);
      }
    }
    expect(types.has('v0_p2wpkh')).toBe(true);
    const hexOf = await fetch(`${btc.url}/tx/${chain.tip.txids[0]}/hex`).then((r) => r.text());
    expect(hexOf).toBe(Buffer.from(chain.txs.get(chain.tip.txids[0]!)!.raw).toString('hex'));
  });

  it('gives address stats that add up to its UTXOs, and pages its history newest first', async () => {
    const hot = btc.labels.actors.exchanges[0]!.hot[0]!;
    const info = await api.address(hot);
    const utxos = await api.addressUtxo(hot);
    const balance = info.chain_stats.funded_txo_sum - info.chain_stats.spent_txo_sum + info.mempool_stats.funded_txo_sum - info.mempool_stats.spent_txo_sum;
    expect(utxos.reduce((a, u) => a + u.value, 0)).toBe(balance);
    expect(info.chain_stats.tx_count).toBeGreaterThan(25);
    const first = await api.addressTxs(hot);
    const confirmed = first.filter((t) => t.status.confirmed);
    expect(confirmed).toHaveLength(25);
    const heights = confirmed.map((t) => t.status.block_height!);
    expect([...heights].sort((a, b) => b - a)).toEqual(heights);
    const next = await api.addressTxs(hot, confirmed.at(-1)!.txid);
    expect(next.length).toBeGreaterThan(0);
    expect(next[0]!.status.block_height!).toBeLessThanOrEqual(heights.at(-1)!);
    expect(new Set([...confirmed, ...next].map((t) => t.txid)).size).toBe(confirmed.length + next.length);
    const bad = await fetch(`${btc.url}/address/notanaddress`);
    expect(bad.status).toBe(400);
  });

  it('serves the mempool, its histogram, recent txs and fee estimates', async () => {
    const m = await api.mempool();
    const pool = [...btc.chain.mempool.values()];
    expect(m.count).toBe(pool.length);
    expect(m.total_fee).toBe(pool.reduce((a, t) => a + t.fee, 0));
    expect(m.fee_histogram.reduce((a, [, v]) => a + v, 0)).toBe(m.vsize);
    const rates = m.fee_histogram.map(([r]) => r);
    expect([...rates].sort((a, b) => b - a)).toEqual(rates);
    expect(new Set(await api.mempoolTxids())).toEqual(new Set(pool.map((t) => t.txid)));
    const recent = await api.mempoolRecent();
    expect(recent.length).toBe(Math.min(10, pool.length));
    const est = await api.feeEstimates();
    expect(Object.keys(est)).toEqual(expect.arrayContaining(['1', '2', '3', '6', '25', '144', '504', '1008']));
    expect(est['1']!).toBeGreaterThanOrEqual(est['144']!);
    const rec = await fetch(`${btc.url}/v1/fees/recommended`).then((r) => r.json());
    expect(rec).toMatchObject({ fastestFee: expect.any(Number), halfHourFee: expect.any(Number), hourFee: expect.any(Number), economyFee: expect.any(Number), minimumFee: 1 });
    const blocks = (await fetch(`${btc.url}/v1/fees/mempool-blocks`).then((r) => r.json())) as { nTx: number }[];
    expect(blocks.reduce((a, b) => a + b.nTx, 0)).toBe(pool.length);
  });

  it('serves the chain as of an earlier height, with the mempool of that moment', async () => {
    const chain = btc.chain;
    const h = chain.tip.height - 20;
    const past = await serveEsplora(chain, { asOfHeight: h });
    try {
      const old = new EsploraClient(past.url);
      expect(await old.tipHeight()).toBe(h);
      expect(await old.blockHashAt(h + 1)).toBeNull();
      const later = chain.blocks[h + 1]!;
      const ids = new Set(await old.mempoolTxids());
      // Every tx the next block took had arrived before it, so it waited in the mempool at h.
      for (const id of later.txids.slice(1)) {
        if (chain.txs.get(id)!.seenAt <= chain.blocks[h]!.header.time) expect(ids.has(id)).toBe(true);
        const t = (await old.tx(id))!;
        if (t) expect(t.status.confirmed).toBe(false);
      }
      for (const id of ids) expect(chain.txs.get(id)!.height === undefined || chain.txs.get(id)!.height! > h).toBe(true);
    } finally {
      await past.close();
    }
  });

  it("labels' exposed wallets show their public key in the API's data", async () => {
    const exposed = btc.labels.exposed;
    const byWhy = (w: string) => exposed.filter((e) => e.why === w);
    expect(byWhy('p2pk').length).toBeGreaterThan(10);
    expect(byWhy('reused-after-spend').length).toBeGreaterThan(5);
    expect(byWhy('taproot-key-path').length).toBeGreaterThan(5);
    for (const e of byWhy('reused-after-spend').slice(0, 8)) {
      const info = await api.address(e.address);
      expect(info.chain_stats.funded_txo_sum - info.chain_stats.spent_txo_sum).toBe(e.sats);
      // Some confirmed spend from the address carries a public key that hashes to it.
      let found = false;
      let page = await api.addressTxs(e.address);
      for (let guard = 0; !found && page.length && guard < 50; guard++) {
        for (const t of page) for (const i of t.vin) {
          if (i.prevout?.scriptpubkey_address !== e.address || !t.status.confirmed) continue;
          const pub = i.witness?.[1] ?? i.scriptsig_asm.split(' ').at(-1)!;
          if (i.prevout.scriptpubkey.includes(hash160(Buffer.from(pub, 'hex')))) found = true;
        }
        const last = page.filter((t) => t.status.confirmed).at(-1);
        page = last ? await api.addressTxs(e.address, last.txid) : [];
      }
      expect(found, e.address).toBe(true);
    }
    for (const e of byWhy('taproot-key-path').slice(0, 5)) {
      // Labels count the confirmed state (coins a mempool tx spends still count).
      const stats = (await api.address(e.address)).chain_stats;
      expect(stats.funded_txo_sum - stats.spent_txo_sum).toBe(e.sats);
      const [first] = await api.addressTxs(e.address);
      expect(first!.vout.some((o) => o.scriptpubkey_address === e.address && o.scriptpubkey_type === 'v1_p2tr')).toBe(true);
    }
  });

  it('publishes entities: exchanges, pools and custodians holding the wrapped supply', async () => {
    const kinds = new Set(btc.entities.map((e) => e.kind));
    expect(kinds).toEqual(new Set(['exchange', 'miner', 'custodian']));
    for (const c of btc.entities.filter((e) => e.kind === 'custodian')) {
      let sats = 0;
      for (const a of c.addresses) {
        const s = (await api.address(a)).chain_stats;
        sats += s.funded_txo_sum - s.spent_txo_sum;
      }
      // WBTC: 40,000 on each of five chains; BTCB: 60,000 on bsc (chain/genesis.ts).
      expect(sats).toBe((c.backs === 'WBTC' ? 200_000 : 60_000) * 1e8);
    }
    expect(btc.prices.at(ORIGIN)).toBeCloseTo(new ReferencePaths(SEED, ORIGIN).priceUsd('BTC', ORIGIN), 6);
    expect(btc.prices.at(Date.parse('2010-10-01') / 1000)!).toBeLessThan(1);
    expect(btc.prices.at(Date.parse('2017-12-10') / 1000)!).toBeGreaterThan(8_000);
  });
});
