/**
 * The v4 hook radar on the shared world, paid over A2A as a buyer would: every hook the world
 * planted on its singleton pool manager is found with exactly the permissions its address carries
 * and the risks planted in its code, its pools and proxy as the labels have them; each pool's
 * swaps and volume equal the manager's Swap logs over the blocks the answer names; the malicious
 * hook's untouched swaps are its labelled victims and it holds what they paid in. Chain id 4663,
 * which this deployment does not serve, is `available: false` (a refusal before any payment when
 * asked alone, over A2A and MCP); bad input is a 400 naming the field before any 402.
 */
import { erc20Abi, formatUnits, getAddress, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V4_POOL_MANAGERS } from '../../chain/chains.js';
import { SWAP_EVENT } from '../../skills/hooks/engine.js';
import { json, postJson, walletPoster } from '../helpers/sibyl.js';
import { SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';
import { creditedMcpClient } from '../helpers/mcp-credits.js';
import { startSharedWorldSibyl, type WorldSibyl } from '../helpers/world.js';

const RADAR = '/api/a2a/skills/v4-hook-radar';
let w: WorldSibyl;

beforeAll(async () => {
  w = await startSharedWorldSibyl();
}, 300_000);
afterAll(() => w?.close());

const lower = (a: string) => a.toLowerCase();

describe('v4 hook radar on the world', () => {
  it('finds every labelled hook with exactly its permissions and planted risks, its pools and proxy; volumes are the Swap logs; 4663 is not available', async () => {
    const p = await walletPoster(w.sibyl.url, '2', w.rpcUrl);
    const before = await p.balance();
    const res = await p.post(RADAR, { params: { limit: 100, timeperiod: '30d' } });
    const body = await json(res);
    expect(res.status, JSON.stringify(body).slice(0, 400)).toBe(200);
    expect(before - (await p.balance())).toBe(SPEC_SKILL_PRICE['v4-hook-radar']);
    const answer = body.response;
    expect(answer.methodology).toContain('hooks/v1');
    expect(answer.chains.find((c: any) => c.chainId === 4663)).toMatchObject({ available: false, reason: expect.stringContaining('4663') });
    const base = answer.chains.find((c: any) => c.chainId === 8453);
    expect(base).toMatchObject({ available: true, chain: 'base', manager: getAddress(V4_POOL_MANAGERS.base!) });

    const labelled = w.labels.hooks;
    expect(labelled.length).toBeGreaterThanOrEqual(6);
    expect(base.hookCount).toBe(labelled.length);
    for (const label of labelled) {
      const found = base.hooks.find((h: any) => lower(h.hook) === lower(label.hook));
      expect(found, `${label.name} at ${label.hook}`).toBeDefined();
      expect(found.permissions, label.name).toEqual(label.permissions);
      expect(new Set(found.risks.map((r: any) => r.kind)), label.name).toEqual(new Set(label.risks));
      expect(new Set(found.pools.map((x: any) => x.id)), label.name).toEqual(new Set(label.pools));
      expect(found.riskLevel, label.name).toBe(label.risks.includes('takes-input') || label.risks.includes('selfdestruct') ? 'high' : label.risks.length ? 'medium' : 'low');
      if (label.implementation) expect(found.proxy).toEqual({ implementation: getAddress(label.implementation), admin: getAddress(label.owner!) });
      else expect(found.proxy).toBeNull();
      if (label.owner && !label.implementation) expect(found.owner).toBe(getAddress(label.owner));
    }
    // Hookless pools are counted, never listed as hooks.
    expect(base.poolsRead).toBe(labelled.reduce((n, h) => n + h.pools.length, 0) + base.hooklessPools);
    expect(base.hooklessPools).toBeGreaterThan(0);

    // Each pool's swaps and volume are the manager's Swap logs over the blocks the answer names.
    const logs = await w.client.getLogs({ address: V4_POOL_MANAGERS.base!, event: SWAP_EVENT, fromBlock: BigInt(base.blockRange.from), toBlock: BigInt(base.blockRange.to), strict: true });
    expect(base.swapLogs).toBe(logs.length);
    const abs = (x: bigint) => (x < 0n ? -x : x);
    let pools = 0;
    let feePriced = 0;
    for (const hook of base.hooks) {
      for (const pool of hook.pools) {
        const own = logs.filter((l) => lower(l.args.id) === lower(pool.id));
        const decimals = async (token: Address) => w.client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' });
        expect(pool.swaps, pool.id).toBe(own.length);
        expect(pool.volume0).toBe(formatUnits(own.reduce((s, l) => s + abs(l.args.amount0), 0n), await decimals(pool.currency0.address)));
        expect(pool.volume1).toBe(formatUnits(own.reduce((s, l) => s + abs(l.args.amount1), 0n), await decimals(pool.currency1.address)));
        // Fees: each swap's fee (pips, from its log) on the side the swapper paid in (its negative delta).
        const paidFee = (amount: bigint, fee: number) => (amount < 0n ? (-amount * BigInt(fee)) / 1_000_000n : 0n);
        expect(pool.fees0).toBe(formatUnits(own.reduce((s, l) => s + paidFee(l.args.amount0, l.args.fee), 0n), await decimals(pool.currency0.address)));
        expect(pool.fees1).toBe(formatUnits(own.reduce((s, l) => s + paidFee(l.args.amount1, l.args.fee), 0n), await decimals(pool.currency1.address)));
        // At one fee for every swap of the pool, its USD fees are its USD volume at that fee.
        const fees = new Set(own.map((l) => l.args.fee));
        if (fees.size === 1 && pool.volumeUsd !== null) {
          expect(pool.feesUsd, pool.id).toBeCloseTo((pool.volumeUsd * [...fees][0]!) / 1_000_000, 1);
          feePriced++;
        }
        pools += own.length ? 1 : 0;
      }
    }
    expect(pools, 'pools that traded over the period').toBeGreaterThanOrEqual(5);
    expect(feePriced, 'pools whose USD fees were checked').toBeGreaterThanOrEqual(3);
    const traded = base.hooks.filter((h: any) => h.riskLevel !== 'high' && h.swaps > 0);
    for (const h of traded) {
      expect(h.volumeUsd, h.hook).toBeGreaterThan(0);
      expect(h.feesUsd, h.hook).toBeCloseTo(h.pools.reduce((s: number, x: any) => s + x.feesUsd, 0), 1);
    }

    // The malicious hook: its untouched swaps are its labelled victims, and it holds what they paid in.
    const drainLabel = labelled.find((h) => h.risks.includes('takes-input'))!;
    const drain = base.hooks.find((h: any) => lower(h.hook) === lower(drainLabel.hook));
    const victims = w.labels.hookVictims.filter((v) => lower(v.hook) === lower(drainLabel.hook));
    // The answer is as of the index's checkpoint: the victims up to its block.
    const seen = victims.filter((v) => v.block >= Number(base.blockRange.from) && v.block <= Number(base.blockRange.to));
    expect(seen.length).toBeGreaterThan(0);
    expect(drain.pools.reduce((s: number, x: any) => s + x.untradedSwaps, 0)).toBe(seen.length);
    expect(drain.risks.find((r: any) => r.kind === 'takes-input').evidence).toContain(`${seen.length} of`);
    for (const token of new Set(victims.map((v) => v.token))) {
      const kept = await w.client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [drainLabel.hook] });
      expect(kept).toBe(victims.filter((v) => v.token === token).reduce((s, v) => s + BigInt(v.amountIn), 0n));
    }
  });

  it('chain id 4663 alone is refused before any payment, over A2A and as MCP scan_hook_layer available: false; bad input is a 400 naming the field', async () => {
    const refused = await postJson(`${w.sibyl.url}${RADAR}`, { params: { chainId: 4663 } });
    const refusal = await json(refused);
    expect(refused.status, JSON.stringify(refusal)).toBe(503);
    expect(refusal.error).toMatchObject({ code: 'chain_unavailable', reason: 'not_served', message: expect.stringContaining('4663') });

    for (const [params, field] of [[{ chainId: 1 }, 'params.chainId'], [{ chainId: '8453' }, 'params.chainId'], [{ limit: 0 }, 'params.limit'], [{ timeperiod: '2d' }, 'params.timeperiod'], [{ chain: 'base' }, 'params']] as const) {
      const bad = await postJson(`${w.sibyl.url}${RADAR}`, { params });
      expect(bad.status, JSON.stringify(params)).toBe(400);
      expect(JSON.stringify(await json(bad)), JSON.stringify(params)).toContain(field);
    }

    // The spec's tool: a signed-in caller with no credit at all gets the refusal as an answer, nothing debited.
    const { client } = await creditedMcpClient(w.sibyl.url, w.rpcUrl, null);
    try {
      const result = await client.callTool({ name: 'scan_hook_layer', arguments: { chainId: 4663 } });
      expect(result.structuredContent).toMatchObject({ available: false, reason: 'chain_unavailable', skill: 'v4-hook-radar', billing: { debitedUsd: '$0' } });
    } finally {
      await client.close();
    }
  });
});
