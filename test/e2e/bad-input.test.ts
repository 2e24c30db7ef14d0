/**
 * Bad input is a 4xx in the one JSON error shape, never a 5xx, an empty body or a hang:
 * compressed bodies, deep nesting, unreasonable payment windows, wrongly typed payment
 * signatures, oversized headers, and a seeded fuzz over every paid operation.
 */
import { describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import { fundedPayer, json, postJson, useTestSibyl, usdcBalance } from '../helpers/sibyl.js';
import { signedPayment } from '../helpers/payments.js';

const PRICE = 400_000n;
const path = '/x402/data/latest-pairs';

interface RawResponse { status: number; body: string; contentType: string | undefined }

/** One HTTP/1.1 request on a fresh connection, failing after `timeoutMs`. */
function send(url: string, opts: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer | string }, timeoutMs = 5_000): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method: opts.method ?? 'POST', path: opts.path, headers: { connection: 'close', ...opts.headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), contentType: res.headers['content-type'] }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`hang: no answer within ${timeoutMs} ms for ${opts.path}`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** The error shape: `{ error: { code, message, fields?, reason? } }`, or a 402 challenge. */
function expectErrorShape(res: RawResponse, context: string): void {
  expect(res.status, context).toBeGreaterThanOrEqual(400);
  expect(res.status, `${context}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
  expect(res.contentType, context).toMatch(/^application\/json/);
  const body = JSON.parse(res.body);
  if (res.status === 402) {
    expect(body.x402Version, context).toBeTypeOf('number');
    return;
  }
  expect(body.error?.code, context).toBeTypeOf('string');
  expect(body.error?.message, context).toBeTypeOf('string');
  if (body.error.fields !== undefined) {
    expect(Array.isArray(body.error.fields), context).toBe(true);
    for (const f of body.error.fields) expect([typeof f.field, typeof f.rule], context).toEqual(['string', 'string']);
  }
}

describe('bad input answers 4xx in the error shape', () => {
  const sibyl = useTestSibyl({ redis: true });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('a %s-encoded JSON body is inflated and validated like any other', async (encoding, compress) => {
    const ok = await send(sibyl.url, { path, headers: { 'content-type': 'application/json', 'content-encoding': encoding }, body: compress(Buffer.from('{"limit":1}')) });
    expect(ok.status).toBe(402);
    expect(JSON.parse(ok.body).accepts[0].amount).toBe(PRICE.toString());
    const bad = await send(sibyl.url, { path, headers: { 'content-type': 'application/json', 'content-encoding': encoding }, body: compress(Buffer.from('{"limit":"x"}')) });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.fields[0].field).toBe('limit');
  });

  it('a body that does not inflate is 400, an unknown encoding 415', async () => {
    const broken = await send(sibyl.url, { path, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: Buffer.from('{"limit":1}') });
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.body).error.code).toBe('invalid_json');
    const unknown = await send(sibyl.url, { path, headers: { 'content-type': 'application/json', 'content-encoding': 'zstd' }, body: Buffer.from('{"limit":1}') });
    expect(unknown.status).toBe(415);
    expect(JSON.parse(unknown.body).error.code).toBe('unsupported_media_type');
  });

  it('report metadata nested 5,000 levels deep is refused naming the field and the depth rule', async () => {
    const deep = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
    for (const nested of [deep, `${'['.repeat(5_000)}${']'.repeat(5_000)}`]) {
      const res = await send(sibyl.url, { path: '/x402/svc/report', headers: { 'content-type': 'application/json' }, body: `{"prompt":"hello","metadata":{"x":${nested}}}` });
      expect(res.status, res.body.slice(0, 200)).toBe(400);
      const body = JSON.parse(res.body);
      expect(body.error.code).toBe('invalid_body');
      expect(body.error.fields).toEqual([{ field: 'metadata', rule: expect.stringMatching(/at most \d+ levels/) }]);
    }
  });

  it('a payment whose validBefore is absurdly far is refused as invalid, nothing reserved', async () => {
    const { key, account } = await fundedPayer('1');
    const { header } = await signedPayment({ key, payTo: sibyl.payTo, amount: PRICE, validBefore: 10n ** 16n });
    const res = await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': header });
    expect(res.status).toBe(402);
    const body = await json(res);
    expect(body.error).toBe('authorization_window_too_long');
    expect(body.code).toBe('payment_invalid');
    expect(await usdcBalance(account.address)).toBe(1_000_000n);
    // Nothing was reserved: presenting it again is refused for its window, not as a replay.
    const again = await json(await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': header }));
    expect(again.error).toBe('authorization_window_too_long');
  });

  it.each([
    ['a number', 12345],
    ['an object', { r: '0x01' }],
    ['null', null],
    ['not hex', 'hello'],
  ])('a payment signature that is %s is a malformed payment header naming the field', async (_name, signature) => {
    const { key } = await fundedPayer('0');
    const { payload } = await signedPayment({ key, payTo: sibyl.payTo, amount: PRICE });
    const header = encodePaymentSignatureHeader({ ...payload, payload: { ...payload.payload, signature } } as never);
    for (const name of ['X-PAYMENT', 'PAYMENT-SIGNATURE']) {
      const res = await postJson(`${sibyl.url}${path}`, { limit: 1 }, { [name]: header });
      expect(res.status).toBe(400);
      const body = await json(res);
      expect(body.error.code).toBe('payment_header_malformed');
      expect(body.error.fields).toEqual([{ field: 'payload.signature', rule: expect.stringContaining('hex') }]);
    }
  });

  it('headers over 16 KB get 431 with the JSON error shape', async () => {
    const res = await send(sibyl.url, { path, headers: { 'content-type': 'application/json', 'x-filler': 'a'.repeat(20_000) }, body: '{"limit":1}' });
    expect(res.status).toBe(431);
    expect(res.contentType).toMatch(/^application\/json/);
    expect(JSON.parse(res.body).error.code).toBe('headers_too_large');
  });

  it('a seeded fuzz of 1,200 malformed bodies and headers over the paid operations: no 5xx, no hang, every error in the shape', async () => {
    const spec = (await (await fetch(`${sibyl.url}/openapi.json`)).json()) as { paths: Record<string, { post?: unknown }> };
    const paths = Object.entries(spec.paths).filter(([p, ops]) => ops.post && p.startsWith('/x402/')).map(([p]) => p);
    expect(paths.length).toBeGreaterThan(5);
    const { key } = await fundedPayer('0');
    const { payload: good } = await signedPayment({ key, payTo: sibyl.payTo, amount: PRICE });

    // mulberry32: the same cases on every run.
    let seed = 0x5eed;
    const rand = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const int = (n: number) => Math.floor(rand() * n);
    const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
    const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => int(256)));
    const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64');
    const nested = (depth: number) => (rand() < 0.5 ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}0${'}'.repeat(depth)}`);
    const wrongValues: unknown[] = [null, true, false, 0, -1, 1e308, -1e308, 2 ** 53 + 1, 1.5, '', 'x', 'x'.repeat(5_000), '0x', '0x' + 'f'.repeat(64), [], [1, 'a'], {}, { a: { b: [] } }, '\u0000', '\ud800'];
    const fields = ['limit', 'chain', 'token', 'address', 'wallet', 'prompt', 'metadata', 'period', 'interval', 'offset', 'hours', 'days', 'minLiquidityUsd', 'skill', 'userId', 'sort', '__proto__', 'constructor'];
    // Each payment case carries its own nonce, so no case waits on another's reservation.
    const hex32 = () => `0x${bytes(32).toString('hex')}`;
    const fresh = () => {
      const auth = (good.payload as { authorization: Record<string, unknown> }).authorization;
      return { ...good, payload: { ...good.payload, authorization: { ...auth, nonce: hex32() } } };
    };
    const paymentValues: (() => string)[] = [
      () => bytes(1 + int(64)).toString('latin1').replace(/[^\x21-\x7e]/g, 'A'),
      () => '!!!not base64!!!',
      () => b64(bytes(1 + int(40)).toString('latin1')),
      () => b64('{"x402Version":'),
      () => b64(pick(wrongValues)),
      () => b64({ x402Version: pick(wrongValues), payload: pick(wrongValues) }),
      () => b64({ ...fresh(), x402Version: pick([1, 2, 3, 1e308, '2', null]) }),
      () => {
        const p = fresh();
        return b64({ ...p, accepted: { ...p.accepted, [pick([...Object.keys(p.accepted), 'extra'])]: pick(wrongValues) } });
      },
      () => {
        const p = fresh();
        return b64({ ...p, accepted: { ...p.accepted, extra: { name: pick(wrongValues), version: pick(wrongValues) } } });
      },
      () => {
        const p = fresh();
        return b64({ ...p, payload: { ...p.payload, signature: pick([...wrongValues, `0x${bytes(65).toString('hex')}`]) } });
      },
      () => {
        const p = fresh();
        const auth = (p.payload as { authorization: Record<string, unknown> }).authorization;
        const field = pick(Object.keys(auth));
        const value = pick([...wrongValues, '1' + '0'.repeat(int(80)), '9'.repeat(78), String(10n ** 16n), String(2n ** 256n)]);
        return b64({ ...p, payload: { ...p.payload, authorization: { ...auth, [field]: value } } });
      },
    ];

    type Case = { path: string; headers: Record<string, string>; body?: Buffer | string };
    const makeCase = (): Case => {
      const p = pick(paths);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      let body: Buffer | string = '{"limit":1}';
      switch (int(9)) {
        case 0: body = bytes(int(512)); break;
        case 1: body = pick(['', '{', '}', '[]', 'null', '1', '"x"', 'true', '{"a":1,}', '{"limit":1}{"limit":2}', '\ufeff{}']); break;
        case 2: body = JSON.stringify({ [pick(fields)]: pick(wrongValues), ...(rand() < 0.5 && { [pick(fields)]: pick(wrongValues) }) }); break;
        case 3: body = `{"${pick(fields)}":${nested(1 + int(6_000))}}`; break;
        case 4: body = JSON.stringify({ [pick(fields)]: 'y'.repeat(1_000 + int(60_000)) }); break;
        case 5: {
          headers['content-type'] = pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/xml', '', '*/*', 'application/json;;;']);
          break;
        }
        case 6: {
          headers['content-encoding'] = pick(['gzip', 'deflate', 'br', 'identity', 'zstd', 'gzip, br', 'x-gzip', 'compress']);
          const raw = Buffer.from(pick(['{"limit":1}', '{"limit":"x"}', nested(3_000), '{']));
          body = pick([raw, gzipSync(raw), deflateSync(raw), brotliCompressSync(raw), bytes(64)]);
          break;
        }
        case 7: headers[pick(['X-PAYMENT', 'PAYMENT-SIGNATURE'])] = pick(paymentValues)(); break;
        default: {
          headers[pick(['X-PAYMENT', 'PAYMENT-SIGNATURE'])] = pick(paymentValues)();
          body = JSON.stringify({ [pick(fields)]: pick(wrongValues) });
        }
      }
      return { path: p, headers, body };
    };
    const cases = Array.from({ length: 1_200 }, makeCase);

    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const c = cases[next++]!;
        const label = `${c.path} ${JSON.stringify(c.headers).slice(0, 2000)} ${String(c.body).slice(0, 80)}`;
        try {
          const res = await send(sibyl.url, c);
          try {
            expectErrorShape(res, label);
          } catch (err) {
            failures.push(`${res.status} ${res.body.slice(0, 200)} ← ${label}: ${(err as Error).message.split('\n')[0]}`);
          }
        } catch (err) {
          failures.push(`${(err as Error).message} ← ${label}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(failures.slice(0, 10)).toEqual([]);
  }, 60_000);
});
