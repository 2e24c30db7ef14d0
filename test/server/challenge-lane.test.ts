/**
 * The challenge lane answers unpaid calls in front of express: for every body, what it answers
 * must equal what the express route answers for the same request (status, error shape, the
 * challenge and its PAYMENT-REQUIRED header). A chunked body skips the lane (it reads only
 * bodies with a Content-Length), so each case is sent both ways.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useTestSibyl } from '../helpers/sibyl.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

function post(base: string, path: string, raw: string, chunked: boolean): Promise<Answer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': Buffer.byteLength(raw) }) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString()) }));
    });
    req.on('error', reject);
    req.end(raw);
  });
}

const decode = (header: unknown) => (typeof header === 'string' ? JSON.parse(Buffer.from(header, 'base64').toString()) : header);

describe('challenge lane', () => {
  const sibyl = useTestSibyl();

  const cases: [string, string, string][] = [
    ['a valid body', '/x402/data/latest-pairs', JSON.stringify({ limit: 1 })],
    ['a valid body with a query string', '/x402/data/latest-pairs?x=1', JSON.stringify({ limit: 2 })],
    ['a field out of range', '/x402/data/latest-pairs', JSON.stringify({ limit: 0 })],
    ['an unknown field', '/x402/data/latest-pairs', JSON.stringify({ bogus: true })],
    ['a token the index lacks (admission)', '/x402/data/tokenchart', JSON.stringify({ tokenAddress: 'NOPE123', chain: 'base' })],
    ['a chain not indexed here (admission)', '/x402/data/latest-pairs', JSON.stringify({ chains: ['zksync'] })],
    ['not JSON', '/x402/data/latest-pairs', '{"limit": '],
    ['a JSON string', '/x402/data/latest-pairs', '"limit"'],
    ['a JSON array', '/x402/data/latest-pairs', '[1]'],
    ['nesting past the cap', '/x402/data/latest-pairs', `{"a":${'['.repeat(40)}${']'.repeat(40)}}`],
  ];

  it.each(cases)('%s: the lane answers what express answers', async (_name, path, raw) => {
    const lane = await post(sibyl.url, path, raw, false);
    const viaExpress = await post(sibyl.url, path, raw, true);
    expect(lane.status).toBe(viaExpress.status);
    expect(lane.body).toEqual(viaExpress.body);
    expect(decode(lane.headers['payment-required'])).toEqual(decode(viaExpress.headers['payment-required']));
    expect(lane.headers['content-type']).toBe(viaExpress.headers['content-type']);
    if (lane.status === 402) {
      // The lane answered it (express adds an ETag to what res.json sends; the lane does not).
      expect(lane.headers.etag).toBeUndefined();
      expect(viaExpress.headers.etag).toBeDefined();
      expect((lane.body as { accepts: { amount: string }[] }).accepts[0]!.amount).toMatch(/^\d+$/);
    }
  });

  it('a challenge is the same on every call (built once per price variant and resource)', async () => {
    const raw = JSON.stringify({ limit: 3 });
    const first = await post(sibyl.url, '/x402/data/latest-pairs', raw, false);
    const second = await post(sibyl.url, '/x402/data/latest-pairs', raw, false);
    expect(second.headers['payment-required']).toBe(first.headers['payment-required']);
    expect(second.body).toEqual(first.body);
  });
});
