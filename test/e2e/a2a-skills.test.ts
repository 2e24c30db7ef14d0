/** A2A skills over HTTP: the list, and a paid call with the `{ params }` envelope at the skill's catalogue price. */
import { describe, expect, it } from 'vitest';
import { createRegistry } from '../../skills/catalog/index.js';
import { json, postJson, useTestSibyl, walletPoster, TEST_SERVER_PARTS } from '../helpers/sibyl.js';
import { SPEC_PATH_PRICE, SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';

// As the test server is (TEST_SERVER_PARTS).
const registry = createRegistry([], TEST_SERVER_PARTS);
const catalog = (id: keyof typeof SPEC_SKILL_PRICE) => SPEC_SKILL_PRICE[id];

describe('A2A skills over HTTP', () => {
  const sibyl = useTestSibyl();

  it('lists every working A2A skill with id, tags and its catalogue price', async () => {
    const list = await json(await fetch(`${sibyl.url}/api/a2a/skills`));
    const ids = list.skills.map((s: { id: string }) => s.id);
    expect(ids.sort()).toEqual(registry.published('a2a').map((s) => s.id).sort());
    const whales = list.skills.find((s: { id: string }) => s.id === 'whale-tracking');
    expect(whales).toMatchObject({ priceUsd: '0.45', tags: expect.arrayContaining(['whales']), endpoint: `${sibyl.url}/api/a2a/skills/whale-tracking` });
    expect(whales.params.properties.chain.enum).toContain('base');
    expect(list.skills.find((s: { id: string }) => s.id === 'general-analysis').priceUsd).toBe('1.00');
    expect(list.skills.find((s: { id: string }) => s.id === 'tokenchart').priceUsd).toBe('0.25-0.65');
    expect(ids).not.toContain('generate-video');
  });

  it('runs a skill paid with x402 at its catalogue price, not the HTTP operation price', async () => {
    const url = `${sibyl.url}/api/a2a/skills/whale-tracking`;
    const challenge = await postJson(url, { params: { chain: 'base', timeperiod: '24h' } });
    expect(challenge.status).toBe(402);
    expect((await json(challenge)).accepts[0].amount).toBe(String(catalog('whale-tracking')));
    expect(catalog('whale-tracking')).toBeLessThan(SPEC_PATH_PRICE.whaleintel);

    const payer = await walletPoster(sibyl.url, '5');
    const before = await payer.balance();
    const res = await payer.post('/api/a2a/skills/whale-tracking', { params: { chain: 'base', timeperiod: '24h', limit: 5 } });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ status: 'completed', skill: 'whale-tracking', response: { chain: 'base', limit: 5 }, payment: { network: 'eip155:8453', transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) } });
    expect(before - (await payer.balance())).toBe(catalog('whale-tracking'));
  });

  it('answers the report agent as general-analysis at $1.00', async () => {
    const payer = await walletPoster(sibyl.url, '5');
    const before = await payer.balance();
    const res = await payer.post('/api/a2a/skills/general-analysis', { params: { prompt: 'List the newest pairs on base' } });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.response.toolsUsed[0].skill).toBe('latest-pairs');
    expect(before - (await payer.balance())).toBe(catalog('general-analysis'));
  });

  it('cross-chain arbitrage prices the same asset on every indexed chain, gaps recomputable from its quotes', async () => {
    const payer = await walletPoster(sibyl.url, '5');
    const res = await payer.post('/api/a2a/skills/cross-chain-arbitrage', { params: {} });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    const { assets, chains } = body.response;
    expect(chains.length).toBeGreaterThanOrEqual(2);
    expect(assets.length).toBeGreaterThan(0);
    for (const a of assets) {
      expect(new Set(a.quotes.map((q: { chain: string }) => q.chain)).size).toBe(a.quotes.length);
      expect(a.quotes.length).toBeGreaterThanOrEqual(2);
      expect(a.gapPct).toBeCloseTo((a.dearest.priceUsd / a.cheapest.priceUsd - 1) * 100, 3);
    }
    expect(assets.map((a: { gapPct: number }) => a.gapPct)).toEqual([...assets.map((a: { gapPct: number }) => a.gapPct)].sort((x, y) => y - x));
  });

  it('chain markets and alpha-ranked gainers take exactly the spec\'s params; stocks this devnet cannot value answer 503 and charge nothing', async () => {
    const payer = await walletPoster(sibyl.url, '5');
    // By liquidity: every pooled token qualifies, traded or not (this devnet's pools hold liquidity from genesis).
    const board = await json(await payer.post('/api/a2a/skills/chain-markets', { params: { sort: 'liquidity', limit: 5 } }));
    const tokens = board.response.tokens as { liquidityUsd: number; chain: string }[];
    expect(tokens.length).toBe(5);
    expect(tokens.map((t) => t.liquidityUsd)).toEqual([...tokens.map((t) => t.liquidityUsd)].sort((a, b) => b - a));
    expect(new Set(board.response.sources.map((s: string) => s.split(':')[1]!.split('@')[0])).size).toBeGreaterThan(1);
    const before = await payer.balance();
    // The devnet's stock chain is bare: no feeds to value a stock token by, refused before any 402.
    for (const params of [{ kind: 'stock' }, { sort: 'premium' }]) {
      const stocks = await payer.post('/api/a2a/skills/chain-markets', { params });
      expect(stocks.status).toBe(503);
      expect((await json(stocks)).error).toMatchObject({ code: 'chain_unavailable', message: expect.stringMatching(/no directory of the underlyings' feeds/) });
    }
    expect(await payer.balance()).toBe(before);
    const crypto = await postJson(`${sibyl.url}/api/a2a/skills/chain-markets`, { params: { kind: 'crypto', sort: 'premium' } });
    expect(crypto.status).toBe(400);
    expect((await json(crypto)).error.fields[0].field).toBe('params.sort');
    const extra = await postJson(`${sibyl.url}/api/a2a/skills/chain-markets`, { params: { chain: 'base' } });
    expect((await json(extra)).error.fields[0].field).toBe('params.chain');
    const paid = await payer.balance();
    const res = await payer.post('/api/a2a/skills/top-gainers-comprehensive', { params: { chain: 'arbitrum', limit: 3 } });
    const alpha = await json(res);
    if (res.status === 422) {
      // No token on arbitrum rose and traded (nobody trades on this devnet): an answer of nothing, not charged.
      expect(alpha).toMatchObject({ available: false, charged: false, chain: 'arbitrum', limit: 3, qualified: 0, error: { code: 'no_answer' } });
      expect(await payer.balance()).toBe(paid);
    } else {
      expect(res.status, JSON.stringify(alpha)).toBe(200);
      for (const t of alpha.response.tokens) expect(t.chain).toBe('arbitrum');
      const scores = alpha.response.tokens.map((t: { alpha: number }) => t.alpha);
      expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
    }
  });

  it('refuses a bad envelope or bad params naming the field, an unknown skill with 404, and a planned one with 503 domain_disabled', async () => {
    const post = (id: string, body: unknown) => postJson(`${sibyl.url}/api/a2a/skills/${id}`, body);
    const cases: [string, unknown, string][] = [
      ['whale-tracking', { chain: 'base' }, 'chain'],
      ['whale-tracking', { params: 'base' }, 'params'],
      ['whale-tracking', { params: { chain: 'nowhere' } }, 'params.chain'],
      ['whale-tracking', { params: { limit: 501 } }, 'params.limit'],
      ['holder-concentration', { params: {} }, 'params.tokenAddress'],
    ];
    for (const [id, body, field] of cases) {
      const res = await post(id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json(res)).error.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const missing = await post('no-such-skill', { params: {} });
    expect(missing.status).toBe(404);
    expect((await json(missing)).error.code).toBe('not_found');
    const planned = await post('generate-video', { params: {} });
    expect(planned.status).toBe(503);
    expect((await json(planned)).error.code).toBe('domain_disabled');
  });
});
