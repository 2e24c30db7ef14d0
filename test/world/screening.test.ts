/**
 * The screening engine on a world's chain, read through a loopback proxy that counts the node
 * calls a screen makes and can refuse them: tokens are scanned a bounded number at a time, a
 * second instance on the same Redis at the same checkpoint asks the node nothing, and a node
 * that does not answer leaves every token `screened: false` with the reason (never a pass, and
 * never kept: the next screen asks again). Traps are the world's labels, not the screen's output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { ChainRuntime, type ConnectedChain } from '../../chain/runtime.js';
import { ChainIndexer } from '../../indexer/indexer.js';
import { IndexReader } from '../../indexer/reader.js';
import { Market } from '../../skills/data/market.js';
import { SCREEN_CONCURRENCY, screenList, screenTokens } from '../../skills/data/screening.js';
import { RedisStore } from '../../store/redis.js';
import type { WorldLabels } from '../../world/labels.js';
import { startWorld, worldGenesisTimestamp } from '../../world/index.js';
import { TEST_REDIS_URL } from '../helpers/env.js';

/** Node methods a screen uses: per token the simulation, the bytecode, owner(), totalSupply(); once per checkpoint the entity book's code reads. */
const SCREEN_METHODS = ['eth_call', 'eth_getCode'];

/** Passes JSON-RPC through to `target`, counting screen calls in flight; `refuse` answers eth_call with 503. */
async function countingProxy(target: string) {
  const state = { inFlight: 0, maxInFlight: 0, calls: 0, refuse: false };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const parsed = JSON.parse(body) as { method: string } | { method: string }[];
    const methods = (Array.isArray(parsed) ? parsed : [parsed]).map((r) => r.method);
    const counted = methods.filter((m) => SCREEN_METHODS.includes(m)).length;
    if (state.refuse && methods.includes('eth_call')) return void res.writeHead(503).end('node unavailable');
    state.inFlight += counted;
    state.calls += counted;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    try {
      // Held a little, so calls that overlap are seen overlapping.
      if (counted) await new Promise((r) => setTimeout(r, 15));
      const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
    } finally {
      state.inFlight -= counted;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    reset() {
      state.calls = 0;
      state.maxInFlight = 0;
    },
    close: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  });
}

describe('screening engine', () => {
  let devnet: Devnet;
  let proxy: Awaited<ReturnType<typeof countingProxy>>;
  let chain: ConnectedChain;
  let labels: WorldLabels;
  let reader: IndexReader;
  const stores: RedisStore[] = [];
  const prefix = `sibyl-test:${randomUUID()}:`;
  const store = async () => {
    const s = await RedisStore.connect(TEST_REDIS_URL, prefix);
    stores.push(s);
    return s;
  };

  beforeAll(async () => {
    devnet = await startDevnet({ chains: ['base'], basePort: 0, genesisTimestamp: worldGenesisTimestamp(2), fifo: true });
    const world = await startWorld(devnet.chains, { seed: 'screen-e', days: 2, meanBlockSeconds: 1_200, liveBlockMs: 0, labelsPath: `/tmp/sibyl-screen-e-${process.pid}.json` });
    world.stop();
    labels = world.worlds[0]!.labels;
    proxy = await countingProxy(devnet.chains[0]!.rpcUrl);
    chain = new ChainRuntime().add('base', proxy.url, 'embedded');
    const index = await store();
    await new ChainIndexer(chain, index, { range: 10_000, reorgDepth: 12, lookbackBlocks: 1e9 }).sync();
    reader = new IndexReader(index, chain.spec.chainId);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await proxy?.close();
    await devnet?.stop();
  });

  it('scans at most SCREEN_CONCURRENCY tokens at once, fails every labelled trap, and a second instance at the same checkpoint asks the node nothing', async () => {
    const market = await Market.load(chain, reader);
    const tokens = [...market.tokens.keys()].filter((t) => market.priceNow(t));
    const traps = labels.tokens.filter((t) => ['honeypot', 'taxed', 'owner-powers'].includes(t.kind) && market.priceNow(t.token.toLowerCase()));
    expect(tokens.length).toBeGreaterThan(2 * SCREEN_CONCURRENCY);
    expect(traps.length).toBeGreaterThan(0);
    proxy.reset();
    const screen = await screenTokens(market, tokens, await store());
    // Each verdict has at most three of these calls in flight (simulation, getCode and owner(); then totalSupply()), after the
    // entity book every verdict waits on has read its code a few addresses at a time.
    expect(proxy.calls).toBeGreaterThanOrEqual(2 * tokens.length);
    expect(proxy.maxInFlight).toBeGreaterThan(3);
    expect(proxy.maxInFlight).toBeLessThanOrEqual(3 * SCREEN_CONCURRENCY);
    for (const t of traps) expect(screen.of('base', t.token), `${t.kind} ${t.symbol}`).toMatchObject({ screened: true, fails: true, failures: expect.arrayContaining([expect.any(String)]) });
    expect(screen.summary('flagged')).toMatchObject({ tokensChecked: tokens.length, unscreened: 0, failed: expect.any(Number) });

    proxy.reset();
    const again = await screenTokens(await Market.load(chain, reader), tokens, await store());
    expect(proxy.calls).toBe(0);
    for (const t of tokens) expect(again.of('base', t)).toEqual(screen.of('base', t));
  });

  it('a node that does not answer leaves tokens screened: false with the reason, listed rather than passed, and asked again next time', async () => {
    const market = await Market.load(chain, reader);
    const cache = await RedisStore.connect(TEST_REDIS_URL, `sibyl-test:${randomUUID()}:`);
    stores.push(cache);
    const trap = labels.tokens.find((t) => t.kind === 'honeypot' && market.priceNow(t.token.toLowerCase()))!;
    expect(trap, 'the world has a priced honeypot').toBeDefined();
    const rows = [{ token: trap.token.toLowerCase() }];
    proxy.refuse = true;
    try {
      const down = await screenList(cache, rows, (r) => ({ market, token: r.token }), 10, 'excluded');
      expect(down.listed).toEqual([{ token: rows[0]!.token, screened: false, flagged: false, risks: [expect.stringMatching(/^not screened: the node did not answer/)] }]);
      expect(down.screen).toMatchObject({ unscreened: 1, failed: 0, excluded: 0 });
    } finally {
      proxy.refuse = false;
    }
    const up = await screenList(cache, rows, (r) => ({ market, token: r.token }), 10, 'excluded');
    expect(up.listed).toEqual([]);
    expect(up.excluded[0]).toMatchObject({ screened: true, flagged: true, risks: expect.arrayContaining([expect.stringMatching(/honeypot|buying reverts/)]) });
  });
});
