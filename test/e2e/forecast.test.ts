/**
 * Forecast inference over HTTP (docs/skills.md, "Forecasts"): token-holder access with signed headers,
 * quota, replay and freshness; paid per call with the official x402 client by everyone else;
 * input limits at their edges; attestation verified with viem;
 * the models endpoint; the paid chart forecast at its price, recorded in the ledger.
 */
import { describe, expect, it } from 'vitest';
import { verifyMessage, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { accessMessage, ACCESS_TIERS, bodyHash, SIGNATURE_WINDOW_SECONDS } from '../../skills/forecast/access.js';
import { forecastInferenceSkill } from '../../skills/forecast/inference.js';
import { canonicalJson } from '../../skills/forecast/engine.js';
import { FORECAST_LIMITS } from '../../skills/forecast/slots.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { fundedPayer, giveServiceTokens, json, payingFetch, postJson, usdcBalance, useTestSibyl } from '../helpers/sibyl.js';

const signingKey = generatePrivateKey();
const sibyl = useTestSibyl({ env: { FORECAST_SIGNING_KEY: signingKey } });
const closes = (n: number) => Array.from({ length: n }, (_, i) => 100 * Math.exp(0.01 * Math.sin(i / 3) + 0.001 * i));

/** Signs `body` for `key` as the access rules say; `skew` moves the timestamp. */
async function signed(key: Hex, body: unknown, skew = 0) {
  const account = privateKeyToAccount(key);
  const raw = JSON.stringify(body);
  const timestamp = String(Date.now() + skew * 1000);
  const signature = await account.signMessage({ message: accessMessage(account.address, timestamp, bodyHash(new TextEncoder().encode(raw))) });
  return { raw, headers: { 'x-wallet': account.address, 'x-timestamp': timestamp, 'x-signature': signature } };
}

async function call(key: Hex, body: unknown, skew = 0) {
  const s = await signed(key, body, skew);
  return fetch(`${sibyl.url}/api/svc/v1/forecast`, { method: 'POST', headers: { 'content-type': 'application/json', ...s.headers }, body: s.raw });
}

async function holder(tokens: string): Promise<Hex> {
  const key = generatePrivateKey();
  await giveServiceTokens(privateKeyToAccount(key).address, tokens);
  return key;
}

describe('forecast inference access', () => {
  it('without access headers: a 402 payable on this endpoint at the catalogue price, naming the cheaper chart forecast', async () => {
    const res = await postJson(`${sibyl.url}/api/svc/v1/forecast`, { inputs: closes(16) });
    expect(res.status).toBe(402);
    const body = await json(res);
    expect(body.reason).toBe('no_access_headers');
    // The catalogue: forecast-inference-api is $1.00 (USDC, 6 decimals); the requirement names this URL.
    expect(body.accepts[0]).toMatchObject({ amount: '1000000', network: 'eip155:8453', payTo: sibyl.payTo });
    expect(body.resource.url).toBe(`${sibyl.url}/api/svc/v1/forecast`);
    const header = JSON.parse(Buffer.from(res.headers.get('payment-required')!, 'base64').toString());
    expect(header.accepts).toEqual(body.accepts);
    expect(header.resource.url).toBe(body.resource.url);
    // The catalogue: the chart forecast is $0.65, on the tokenchart path with forecast: true.
    expect(body.paidAlternative).toMatchObject({ method: 'POST', url: `${sibyl.url}/x402/data/tokenchart`, price: '$0.65', exampleBody: { forecast: true } });
  });

  it('a wallet without service tokens: 402 not_a_holder; a holder of the minimum gets the holder tier', async () => {
    const none = await call(generatePrivateKey(), { inputs: closes(16) });
    expect(none.status).toBe(402);
    expect((await json(none)).reason).toBe('not_a_holder');

    const minimum = ACCESS_TIERS[ACCESS_TIERS.length - 1]!;
    const key = await holder(String(minimum.minTokens));
    const res = await call(key, { inputs: closes(16), model: 'modelB-mini', horizon: 1 });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-quota-tier')).toBe(minimum.tier);
    expect(res.headers.get('x-quota-remaining')).toBe(String(minimum.dailyQuota - 1));
    expect((await json(res)).quota).toMatchObject({ tier: minimum.tier, limit: minimum.dailyQuota });
  });

  it('the daily quota runs out at its size and then answers 402 quota_exhausted', async () => {
    const tier = ACCESS_TIERS[ACCESS_TIERS.length - 1]!;
    const key = await holder(String(tier.minTokens));
    const body = { inputs: closes(16), model: 'modelB-mini', horizon: 1 };
    // The catalogue allows 20 forecasts a minute, so the day's first calls are spent in the store.
    const wallet = privateKeyToAccount(key).address.toLowerCase();
    const day = Math.floor(Date.now() / 86_400_000);
    await sibyl.store.incrBy(`forecast:quota:${wallet}:${day}`, tier.dailyQuota - 2, 2 * 86_400_000);
    for (let i = 0; i < 2; i++) expect((await call(key, body)).status).toBe(200);
    const over = await call(key, body);
    expect(over.status).toBe(402);
    expect((await json(over)).reason).toBe('quota_exhausted');
  });

  it('the catalogue rate limit (20 a minute per wallet) answers 429 with Retry-After and gives the quota back', async () => {
    const key = await holder('20000');
    const body = { inputs: closes(16), model: 'modelB-mini', horizon: 1 };
    const limit = forecastInferenceSkill.catalog!.rateLimitPerMinute;
    // Calls until the limit answers (a minute boundary inside the run restarts the count once).
    let ok = 0;
    let limited: Response | undefined;
    for (let i = 0; i < 2 * limit + 1 && !limited; i++) {
      const res = await call(key, body);
      if (res.status === 429) {
        limited = res;
      } else {
        expect(res.status).toBe(200);
        ok++;
      }
    }
    expect(limited).toBeDefined();
    expect(ok).toBeGreaterThanOrEqual(limit);
    const retryAfter = Number(limited!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await json(limited!)).error.code).toBe('rate_limited');
    // The refused call's quota unit came back: the day's count is the forecasts served.
    const wallet = privateKeyToAccount(key).address.toLowerCase();
    expect(Number(await sibyl.store.get(`forecast:quota:${wallet}:${Math.floor(Date.now() / 86_400_000)}`))).toBe(ok);
  });

  it('signatures: stale or future timestamps past the window, replays, another body, another wallet are refused', async () => {
    const key = await holder('20000');
    const body = { inputs: closes(32), model: 'modelB-mini', horizon: 2 };
    expect((await call(key, body, -(SIGNATURE_WINDOW_SECONDS - 5))).status).toBe(200);
    const stale = await call(key, body, -(SIGNATURE_WINDOW_SECONDS + 5));
    expect(stale.status).toBe(401);
    expect((await json(stale)).error.code).toBe('signature_stale');
    expect((await call(key, body, SIGNATURE_WINDOW_SECONDS + 5)).status).toBe(401);

    const s = await signed(key, body);
    const send = (raw: string, headers = s.headers) => fetch(`${sibyl.url}/api/svc/v1/forecast`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw });
    // Same numbers, other bytes: the signature covers the body's exact bytes.
    const other = await send(JSON.stringify({ ...body, horizon: 3 }));
    expect(other.status).toBe(401);
    expect((await json(other)).error.code).toBe('signature_invalid');
    const impostor = await send(s.raw, { ...s.headers, 'x-wallet': privateKeyToAccount(generatePrivateKey()).address });
    expect((await json(impostor)).error.code).toBe('signature_invalid');
    expect((await send(s.raw)).status).toBe(200);
    const replay = await send(s.raw);
    expect(replay.status).toBe(401);
    expect((await json(replay)).error.code).toBe('signature_replayed');
    expect((await send(s.raw, { ...s.headers, 'x-signature': '0x1234' })).status).toBe(401);
    expect((await send(s.raw, { ...s.headers, 'x-timestamp': 'soon' })).status).toBe(401);
  });
});

describe('forecast inference paid with x402 on its own endpoint', () => {
  const forecastUrl = () => `${sibyl.url}/api/svc/v1/forecast`;
  const send = (pay: typeof fetch, body: unknown) => pay(forecastUrl(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('the official x402 client pays it: 200 with the forecast, and exactly $1.00 moves to payTo', async () => {
    const { key, account } = await fundedPayer('5');
    const { pay, seen } = payingFetch(key);
    const [payerBefore, payToBefore] = await Promise.all([usdcBalance(account.address), usdcBalance(sibyl.payTo)]);
    const res = await send(pay, { inputs: closes(64), horizon: 4 });
    expect(res.status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(res.headers.get('payment-response')).toBeTruthy();
    const body = await json(res);
    expect(body.models.map((m: any) => m.model)).toEqual(['modelA-2.5', 'modelB-small']);
    expect(body.quantiles.q50).toHaveLength(4);
    expect(body.quota).toBeUndefined();
    // The catalogue's $1.00, in USDC's 6 decimals, from the payer to payTo and nowhere else.
    expect(await usdcBalance(account.address)).toBe(payerBefore - 1_000_000n);
    expect(await usdcBalance(sibyl.payTo)).toBe(payToBefore + 1_000_000n);
  });

  it('bad inputs are 400 before any 402: the client never signs, and nothing moves', async () => {
    const { key, account } = await fundedPayer('5');
    const { pay, seen } = payingFetch(key);
    const [payerBefore, payToBefore] = await Promise.all([usdcBalance(account.address), usdcBalance(sibyl.payTo)]);
    for (const body of [{ inputs: closes(FORECAST_LIMITS.minInputs - 1) }, { inputs: closes(16), horizon: 0 }, { inputs: closes(16), model: 'modelC' }]) {
      const res = await send(pay, body);
      expect(res.status).toBe(400);
      expect((await json(res)).error.code).toBe('invalid_body');
    }
    expect(seen).toHaveLength(0);
    expect(await usdcBalance(account.address)).toBe(payerBefore);
    expect(await usdcBalance(sibyl.payTo)).toBe(payToBefore);
  });

  it('a wallet without service tokens is offered the same payable 402, and the catalogue lists both ways at their prices', async () => {
    const res = await call(generatePrivateKey(), { inputs: closes(16) });
    expect(res.status).toBe(402);
    expect(await json(res)).toMatchObject({ reason: 'not_a_holder', accepts: [{ amount: '1000000' }] });
    const catalog = await json(await fetch(`${sibyl.url}/api/marketplace/catalog`));
    const service = catalog.services.find((s: any) => s.id === 'forecast-inference-api');
    expect(service.priceUsd).toBe('1.00');
    expect(service.purchase.map((p: any) => [p.method, p.path, p.priceUsd])).toEqual([
      ['x402', '/api/svc/v1/forecast', '1.00'],
      ['service-token-quota', '/api/svc/v1/forecast', '0.00'],
    ]);
  });
});

describe('forecast inference input', () => {
  const { minInputs, maxInputs, maxHorizon } = FORECAST_LIMITS;
  it.each([
    [{ inputs: closes(minInputs - 1) }, 'inputs', 'at least 16'],
    [{ inputs: closes(maxInputs + 1) }, 'inputs', 'at most 1024'],
    [{ inputs: closes(16), horizon: 0 }, 'horizon', '>= 1'],
    [{ inputs: closes(16), horizon: maxHorizon + 1 }, 'horizon', '<= 256'],
    [{ inputs: closes(16), horizon: 1.5 }, 'horizon', 'integer'],
    [{ inputs: [...closes(15), -1] }, 'inputs.15', ''],
    [{ inputs: [...closes(15), null] }, 'inputs.15', ''],
    [{ inputs: [...closes(15), 'NaN'] }, 'inputs.15', ''],
    [{ inputs: closes(16), model: 'modelA-3.0' }, 'model', 'one of'],
    [{ inputs: closes(16), extra: 1 }, 'extra', 'unknown field'],
  ])('%# is 400 naming %s', async (body, field, rule) => {
    const res = await call(await holder('1'), body);
    expect(res.status).toBe(400);
    const error = (await json(res)).error;
    expect(error.code).toBe('invalid_body');
    expect(error.fields.find((f: any) => f.field === field)?.rule ?? '').toContain(rule);
  });

  it('16 and 1024 inputs with horizons 1 and 256 are served; the attestation verifies with viem', async () => {
    const key = await holder('20000');
    const small = await call(key, { inputs: closes(minInputs), horizon: 1, model: 'modelB-base' });
    expect(small.status).toBe(200);
    const res = await call(key, { inputs: closes(maxInputs), horizon: maxHorizon });
    expect(res.status).toBe(200);
    const { quota, attestation, ...record } = await json(res);
    expect(record.models.map((m: any) => m.model)).toEqual(['modelA-2.5', 'modelB-small']);
    expect(record.models.every((m: any) => m.points.length === maxHorizon)).toBe(true);
    expect(record.quantiles.q10).toHaveLength(maxHorizon);
    expect(['CONSENSUS', 'DIVERGENCE']).toContain(record.consensus.verdict);
    // Models that disagree give no direction; each model's own stays in models[].
    expect(record.direction === null).toBe(record.consensus.verdict === 'DIVERGENCE');
    expect(record.models.every((m: any) => ['bullish', 'bearish', 'neutral'].includes(m.direction) && typeof m.driftPct === 'number')).toBe(true);
    expect(attestation.signer).toBe(privateKeyToAccount(signingKey).address);
    expect(await verifyMessage({ address: attestation.signer, message: canonicalJson(record), signature: attestation.signature })).toBe(true);
    expect(await verifyMessage({ address: attestation.signer, message: canonicalJson({ ...record, lastClose: record.lastClose + 1 }), signature: attestation.signature })).toBe(false);
    expect(quota.remaining).toBe(quota.limit - 2);
  });
});

describe('models and the chart forecast', () => {
  it('the models endpoint states every id, its family, what serves it and its limits', async () => {
    const body = await json(await fetch(`${sibyl.url}/api/svc/v1/models`));
    const byId = Object.fromEntries(body.models.map((m: any) => [m.id, m]));
    expect(Object.keys(byId)).toEqual(['consensus', 'modelA-2.5', 'modelA-3.0', 'modelB-mini', 'modelB-small', 'modelB-base']);
    expect(byId['modelB-small']).toMatchObject({ family: 'finance-native', available: true, servedBy: 'in-process', quantiles: true, horizon: { min: 1, max: 256, default: 8 } });
    expect(byId['modelA-3.0']).toMatchObject({ available: false, reason: expect.stringContaining('FORECAST_BACKEND_MODELA_3_0') });
    expect(body.attestation).toBe('eip191');
  });

  it('tokenchart with forecast: true over too short a history is 503 forecast_unavailable and charges nothing', async () => {
    const { key, account } = await fundedPayer('5');
    const { pay } = payingFetch(key);
    const before = await usdcBalance(account.address);
    // The shared devnet's chain is minutes old: a 1h chart has fewer than 16 one-minute candles.
    const res = await pay(`${sibyl.url}/x402/data/tokenchart`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tokenAddress: 'ETH', timeperiod: '1h', forecast: true }) });
    expect(res.status).toBe(503);
    expect((await json(res)).error).toMatchObject({ code: 'forecast_unavailable', message: expect.stringContaining('at least 16 candles') });
    expect(await usdcBalance(account.address)).toBe(before);
  });

  it('the chart without a forecast keeps its plain price; the accuracy query is validated', async () => {
    const res = await postJson(`${sibyl.url}/x402/data/tokenchart`, { tokenAddress: 'ETH' });
    const chart = createRegistry().byId('tokenchart')!;
    expect((await json(res)).accepts[0].amount).toBe(String(chart.quote(chart.input.parse({ tokenAddress: 'ETH' }))));
    for (const q of ['limit=0', 'limit=51', 'asset=%24%24', 'other=1']) expect((await fetch(`${sibyl.url}/api/svc/v1/forecast/accuracy?${q}`)).status).toBe(400);
    expect((await fetch(`${sibyl.url}/api/svc/v1/forecast/accuracy?limit=50`)).status).toBe(200);
  });
});
