/**
 * The fifteen Bitcoin and post-quantum skills (docs/skills.md) on every surface, bought as a user buys them: over A2A `{params}`
 * with the official x402 client, over A2A JSON-RPC (message/send with the x402 metadata), as the
 * MCP paid tools' kinds from prepaid credits, and through the report agent; each at the spec's
 * price (test/helpers/spec-prices.ts, never the registry). The Bitcoin chain is an embedded one
 * this test builds and hands in by its Esplora API only; quantum randomness comes from a loopback
 * QRNG, and a Sibyl without one refuses it before any 402.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBitcoin, type TestBitcoin } from '../helpers/bitcoin.js';
import { creditedMcpClient } from '../helpers/mcp-credits.js';
import { startQrngStub, type QrngStub } from '../helpers/qrng-stub.js';
import { fundedPayer, json, payingFetch, postJson, rpcUrl, startTestSibyl, usdcBalance, walletPoster, type TestSibyl } from '../helpers/sibyl.js';
import { SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';
import { a2aParamsFailures, kindFailures, paidJsonRpc } from '../helpers/surfaces.js';

const SEED = 'e2e-btc';
const DAYS = 2;

let bitcoin: TestBitcoin;
let qrng: QrngStub;
let sibyl: TestSibyl;

/** A Bitcoin address the world labels as exposed, and an EVM account that has sent (the payer funding the tests did). */
let exposedBtc: string;

beforeAll(async () => {
  bitcoin = await startTestBitcoin(SEED, DAYS);
  exposedBtc = bitcoin.chain.labels.exposed.find((e) => e.why === 'reused-after-spend')!.address;
  qrng = await startQrngStub();
  sibyl = await startTestSibyl({ bitcoin: bitcoin.source, env: { QRNG_URL: qrng.url } });
}, 180_000);
afterAll(async () => {
  await sibyl?.close();
  await qrng?.close();
  await bitcoin?.close();
});

type SkillId = keyof typeof SPEC_SKILL_PRICE;
/** Each new skill with the params a user sends. */
const BODIES = (): Partial<Record<SkillId, Record<string, unknown>>> => ({
  'bitcoin-mempool-intelligence': { limit: 3 },
  'bitcoin-onchain-analytics': { limit: 5 },
  'brc20-analytics': { limit: 5 },
  'runes-analytics': { limit: 5 },
  'bitcoin-bridge-comparison': { limit: 5 },
  'bitcoin-staking-analysis': { limit: 5 },
  'pqc-wallet-scan': { address: exposedBtc },
  'pqc-readiness-assessment': {},
  'pqc-migration-planner': { address: exposedBtc },
  'quantum-portfolio-monitor': { addresses: [exposedBtc] },
  'crqc-proximity-benchmark': {},
  'quantum-hardware-qrng': { bytes: 16 },
  'quantum-encryption-key': {},
  'quantum-signing-key': {},
  'quantum-wallet-generation': {},
});

describe('Bitcoin and post-quantum skills on every surface', () => {
  it('each of the fifteen over A2A {params}, paid with x402 at the spec price', { timeout: 240_000 }, async () => {
    expect(await a2aParamsFailures(await walletPoster(sibyl.url, '20'), BODIES())).toEqual([]);
  });

  it('over A2A JSON-RPC: message/send asks for the spec price, and the paid message completes', { timeout: 60_000 }, async () => {
    const { key } = await fundedPayer('5');
    for (const [skill, params] of [['bitcoin-mempool-intelligence', { limit: 2 }], ['crqc-proximity-benchmark', {}]] as const) await paidJsonRpc(sibyl.url, key, skill, params);
  });

  it('as MCP kinds, each debited at its skill\'s spec price; the cycle position is free', { timeout: 180_000 }, async () => {
    const { client, credits, auth } = await creditedMcpClient(sibyl.url, rpcUrl(), '2');
    // One top-up is capped at the dearest HTTP price; the fifteen kinds cost $11.85.
    const { pay } = payingFetch((await fundedPayer('15')).key);
    for (let i = 0; i < 5; i++) {
      const top = await pay(`${sibyl.url}/api/credits/topup`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ amountUsd: '2' }) });
      expect(top.status, await top.text()).toBe(200);
    }
    try {
      const kinds: [string, Record<string, unknown>, SkillId][] = [
        ['analyze_bitcoin', { kind: 'mempool' }, 'bitcoin-mempool-intelligence'],
        ['analyze_bitcoin', { kind: 'onchain' }, 'bitcoin-onchain-analytics'],
        ['analyze_bitcoin', { kind: 'brc20' }, 'brc20-analytics'],
        ['analyze_bitcoin', { kind: 'runes' }, 'runes-analytics'],
        ['analyze_bitcoin', { kind: 'bridges' }, 'bitcoin-bridge-comparison'],
        ['analyze_bitcoin', { kind: 'staking' }, 'bitcoin-staking-analysis'],
        ['assess_quantum_risk', { kind: 'readiness' }, 'pqc-readiness-assessment'],
        ['assess_quantum_risk', { kind: 'crqc_benchmark' }, 'crqc-proximity-benchmark'],
        ['assess_quantum_risk', { kind: 'portfolio', walletAddress: (await fundedPayer('1')).account.address }, 'quantum-portfolio-monitor'],
        ['assess_quantum_risk', { kind: 'migration', walletAddress: (await fundedPayer('1')).account.address }, 'pqc-migration-planner'],
        ['analyze_wallet', { kind: 'quantum', walletAddress: (await fundedPayer('1')).account.address }, 'pqc-wallet-scan'],
        ['generate_quantum_key', { kind: 'random' }, 'quantum-hardware-qrng'],
        ['generate_quantum_key', { kind: 'encryption' }, 'quantum-encryption-key'],
        ['generate_quantum_key', { kind: 'signing' }, 'quantum-signing-key'],
        ['generate_quantum_key', { kind: 'wallet' }, 'quantum-wallet-generation'],
      ];
      expect(await kindFailures(client, credits, kinds)).toEqual([]);
      const tools = (await client.listTools()).tools;
      expect(tools.find((t) => t.name === 'generate_quantum_key')!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
      await sibyl.snapshots.runAll();
      const before = await credits();
      const cycle = (await client.callTool({ name: 'get_bitcoin_cycle_position', arguments: {} })).structuredContent as Record<string, any>;
      expect(cycle).toMatchObject({ available: true, mvrv: { value: expect.any(Number) }, realizedCap: expect.any(Number), fetchedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
      expect(await credits()).toBe(before);
    } finally {
      await client.close();
    }
  });

  it('the report agent answers Bitcoin and quantum questions with those skills, at the report\'s price', { timeout: 120_000 }, async () => {
    const payer = await walletPoster(sibyl.url, '5');
    for (const [prompt, skill] of [
      ['What fee rate gets a bitcoin transaction into the next block?', 'bitcoin-mempool-intelligence'],
      [`Is ${exposedBtc} exposed to a quantum computer?`, 'pqc-wallet-scan|pqc-readiness-assessment'],
    ] as const) {
      const before = await payer.balance();
      const res = await payer.post('/api/a2a/skills/general-analysis', { params: { prompt } });
      const body = await json(res);
      expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
      expect(skill.split('|')).toContain(body.response.toolsUsed[0].skill);
      expect(before - (await payer.balance())).toBe(SPEC_SKILL_PRICE['general-analysis']);
    }
  });
});

describe('refused before payment', () => {
  it('quantum randomness without a QRNG provider: 503 provider_unavailable, no 402, nothing charged', { timeout: 60_000 }, async () => {
    const bare = await startTestSibyl();
    try {
      const res = await postJson(`${bare.url}/api/a2a/skills/quantum-hardware-qrng`, { params: {} });
      expect(res.status).toBe(503);
      expect((await json(res)).error.code).toBe('provider_unavailable');
      // The keys are still sold, seeded from the OS and saying so.
      const payer = await walletPoster(bare.url, '5');
      const key = await json(await payer.post('/api/a2a/skills/quantum-encryption-key', { params: {} }));
      expect(JSON.stringify(key.response)).toContain('os-csprng');
      // A Bitcoin skill without a Bitcoin chain: declared off, refused before the 402, not advertised.
      const before = await usdcBalance(payer.address);
      const btc = await payer.post('/x402/svc/report', { service: 'bitcoin-mempool-intelligence' });
      expect(btc.status).toBe(503);
      expect((await json(btc)).error.code).toBe('domain_disabled');
      expect(await usdcBalance(payer.address)).toBe(before);
      const catalog = await json(await fetch(`${bare.url}/api/marketplace/catalog`));
      expect(catalog.services.find((s: { id: string }) => s.id === 'bitcoin-mempool')).toMatchObject({ available: false, reason: 'domain_disabled', purchase: [] });
    } finally {
      await bare.close();
    }
  });
});
