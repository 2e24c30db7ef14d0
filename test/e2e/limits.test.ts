/** Every limit of the two operations at its edges; validation always comes before the 402. */
import { beforeAll, describe, expect, it } from 'vitest';
import { paidPoster, postJson, useTestSibyl, json } from '../helpers/sibyl.js';

describe('input limits', () => {
  const sibyl = useTestSibyl();
  let paidPost: Awaited<ReturnType<typeof paidPoster>>;
  beforeAll(async () => {
    paidPost = await paidPoster(() => sibyl.url);
  });

  const post = (path: string, body: unknown) => paidPost(path, body);

  it.each([
    [{ limit: 0 }, 'limit', 'must be >= 1'],
    [{ limit: 501 }, 'limit', 'must be <= 500'],
    [{ limit: 2.5 }, 'limit', 'must be an integer'],
    [{ limit: '5' }, 'limit', 'must be a number'],
    [{ chain: 'dogechain' }, 'chain', 'must be one of base, ethereum, bsc, arbitrum, polygon, optimism, zksync, solana'],
    [{ chains: ['base'] }, 'chains', 'unknown field; allowed fields: chain, limit'],
  ])('latest-pairs %j → 400 naming %s', async (body, field, rule) => {
    const res = await postJson(`${sibyl.url}/x402/data/latest-pairs`, body);
    expect(res.status).toBe(400);
    const { error } = await json(res);
    expect(error.code).toBe('invalid_body');
    expect(error.fields).toContainEqual({ field, rule });
  });

  it('latest-pairs limit 1 returns exactly one pair', async () => {
    const res = await post('/x402/data/latest-pairs', { limit: 1 });
    expect(res.status).toBe(200);
    expect((await json(res)).pairs).toHaveLength(1);
  });

  it('latest-pairs limit 500 returns every pair there is, up to 500', async () => {
    const res = await post('/x402/data/latest-pairs', { limit: 500 });
    expect(res.status).toBe(200);
    const answer = await json(res);
    expect(answer.pairs.length).toBeGreaterThanOrEqual(6);
    expect(answer.pairs.length).toBeLessThanOrEqual(500);
    const blocks = answer.pairs.map((p: { createdBlock: string }) => Number(p.createdBlock));
    expect(blocks).toEqual([...blocks].sort((a, b) => b - a)); // newest first
  });

  it('latest-pairs defaults to base and 50', async () => {
    const res = await post('/x402/data/latest-pairs', {});
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ chain: 'base', limit: 50 });
  });

  it.each([
    [{}, 'walletAddress', 'required (string)'],
    [{ walletAddress: '0x1234' }, 'walletAddress', 'must be 0x followed by 40 hex characters'],
    [{ walletAddress: 42 }, 'walletAddress', 'must be a string'],
    [{ walletAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', chain: 'optimism' }, 'chain', 'must be one of ethereum, base, bsc, arbitrum, polygon'],
    [{ walletAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', chain: 'solana' }, 'chain', 'must be one of ethereum, base, bsc, arbitrum, polygon'],
  ])('wallet-holdings %j → 400 naming %s', async (body, field, rule) => {
    const res = await postJson(`${sibyl.url}/x402/data/wallet-holdings`, body);
    expect(res.status).toBe(400);
    expect((await json(res)).error.fields).toContainEqual({ field, rule });
  });

  it.each([
    ['no body', undefined, 'invalid_json', 400],
    ['broken JSON', '{"limit":', 'invalid_json', 400],
    ['a JSON array', '[1,2]', 'invalid_json', 400],
    ['a JSON string', '"hello"', 'invalid_json', 400],
  ])('%s → %s', async (_name, raw, code, status) => {
    const res = await fetch(`${sibyl.url}/x402/data/latest-pairs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw });
    expect(res.status).toBe(status);
    expect((await json(res)).error.code).toBe(code);
  });

  it('a non-JSON content type → 415', async () => {
    const res = await fetch(`${sibyl.url}/x402/data/latest-pairs`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'limit=5' });
    expect(res.status).toBe(415);
    expect((await json(res)).error.code).toBe('unsupported_media_type');
  });

  it('a body over 64 KiB → 413', async () => {
    const res = await postJson(`${sibyl.url}/x402/data/latest-pairs`, { pad: 'x'.repeat(70_000) });
    expect(res.status).toBe(413);
    expect((await json(res)).error.code).toBe('payload_too_large');
  });

  it('an unknown path → 404 in the error shape', async () => {
    const res = await postJson(`${sibyl.url}/x402/data/nothing-here`, {});
    expect(res.status).toBe(404);
    expect((await json(res)).error.code).toBe('not_found');
  });
});
