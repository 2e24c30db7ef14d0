/**
 * ERC-4626 vaults on the shared world (world/modules/vaults.ts), bought over A2A as a client would:
 * the list's TVL is each vault's totalAssets on chain at the market price, its realised APY agrees
 * with the income rate the world labelled for the vault's strategy, and the deprecated vault is
 * flagged and left out of discovery; a demo wallet executes the deposit and rebalance plans it is
 * given and the chain shows the shares and the underlying moved; a depositor who forgot its shares
 * in the deprecated vault finds them in the forgotten-assets scan. Bad input is a 400 before any 402.
 */
import { createWalletClient, erc20Abi, erc4626Abi, formatUnits, http, parseUnits, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccount } from '../../chain/accounts.js';
import { CHAINS } from '../../chain/chains.js';
import { viemChain } from '../../chain/runtime.js';
import { STATED_GAS } from '../../skills/yield-plans/engine.js';
import { loadMarket } from '../../skills/data/load.js';
import { freshAddress, json, mintUsdc, postJson, walletPoster } from '../helpers/sibyl.js';
import { SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';
import { startSharedWorldSibyl, type WorldSibyl } from '../helpers/world.js';

/**
 * How far a realised APY may sit from the labelled rate: the strategy pays every two hours or so,
 * so up to one payment is missing at the head of a three-day history (about 3.5% of it).
 */
const APY_TOLERANCE = { relative: 0.08, absolutePct: 0.1 };
const USDC = CHAINS.base.usdc as Address;

let w: WorldSibyl;
beforeAll(async () => {
  w = await startSharedWorldSibyl();
}, 300_000);
afterAll(() => w?.close());

const payer = () => walletPoster(w.sibyl.url, '5', w.rpcUrl);
const wallet = (account: Address) => createWalletClient({ account, chain: viemChain('base', w.rpcUrl), transport: http(w.rpcUrl) });
const balanceOf = (token: Address, owner: Address) => w.client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });

async function buy(skill: keyof typeof SPEC_SKILL_PRICE, params: Record<string, unknown>) {
  const p = await payer();
  const before = await p.balance();
  const res = await p.post(`/api/a2a/skills/${skill}`, { params });
  const body = await json(res);
  expect(res.status, JSON.stringify(body).slice(0, 400)).toBe(200);
  expect(before - (await p.balance())).toBe(SPEC_SKILL_PRICE[skill]);
  return body.response;
}

/** Sends a plan's transactions in order as the wallet; returns their receipts. */
async function execute(from: Address, txs: { to: Address; data: `0x${string}` }[]) {
  const receipts = [];
  for (const tx of txs) {
    const receipt = await w.client.waitForTransactionReceipt({ hash: await wallet(from).sendTransaction({ to: tx.to, data: tx.data } as never) });
    expect(receipt.status).toBe('success');
    receipts.push(receipt);
  }
  return receipts;
}

describe('vaults on the world', () => {
  it('vaults-list: every world vault, TVL its totalAssets on chain at the market price, realised APY within tolerance of the labelled income rate, the deprecated vault flagged', async () => {
    expect(w.labels.vaults.length).toBeGreaterThanOrEqual(5);
    const scan = await buy('vaults-list', { chain: 'base', limit: 100 });
    expect(scan.methodology).toContain('vaults/v1');
    const rows = scan.chains[0].vaults as any[];
    const { market } = await loadMarket(w.sibyl.context, 'base');
    for (const label of w.labels.vaults) {
      const row = rows.find((r) => r.vault.toLowerCase() === label.vault.toLowerCase());
      expect(row, label.name).toBeDefined();
      expect(row).toMatchObject({ name: label.name, discoveredBy: 'factory', asset: { address: expect.stringMatching(new RegExp(label.asset, 'i')) } });
      const totalAssets = await w.client.readContract({ address: label.vault, abi: erc4626Abi, functionName: 'totalAssets' });
      expect(parseUnits(row.totalAssets, row.asset.decimals)).toBe(totalAssets);
      const price = market.priceNow(label.asset)!.usd;
      expect(row.priceUsd).toBeCloseTo(price, 4);
      expect(row.tvlUsd).toBeCloseTo(Number(formatUnits(totalAssets, row.asset.decimals)) * price, 0);
      if (label.deprecated) {
        expect(row).toMatchObject({ deprecated: true, depositsOpen: false });
        expect(row.risks.map((r: { kind: string }) => r.kind)).toContain('deprecated');
        continue;
      }
      const apy = row.apy['7d'];
      expect(apy, label.name).not.toBeNull();
      // The world's history is three days: the 7-day APY is over what there is, and says so.
      expect(apy.fullWindow).toBe(false);
      const allowed = Math.max(APY_TOLERANCE.absolutePct, label.incomeApyPct * APY_TOLERANCE.relative);
      expect(Math.abs(apy.apyPct - label.incomeApyPct), `${label.name}: realised ${apy.apyPct}% vs labelled ${label.incomeApyPct}%`).toBeLessThanOrEqual(allowed);
      expect(row.risks.map((r: { kind: string }) => r.kind)).toContain('young-history');
    }
  });

  it('yield-discover: the USDC vaults taking deposits, best realised APY first; the deprecated one left out and counted', async () => {
    const found = await buy('yield-discover', { asset: 'USDC', chain: 'base' });
    const live = w.labels.vaults.filter((l) => l.asset.toLowerCase() === USDC.toLowerCase() && !l.deprecated);
    expect(found.vaults.map((v: { vault: string }) => v.vault.toLowerCase()).sort()).toEqual(live.map((l) => l.vault.toLowerCase()).sort());
    const apys = found.vaults.map((v: { apy: { apyPct: number } }) => v.apy.apyPct);
    expect(apys).toEqual([...apys].sort((a, b) => b - a));
    // The labels agree on which pays most.
    expect(found.vaults[0].vault.toLowerCase()).toBe([...live].sort((a, b) => b.incomeApyPct - a.incomeApyPct)[0]!.vault.toLowerCase());
    expect(found.leftOut.deprecated).toBe(1);
    expect(found.lpPools.length).toBeGreaterThan(0);
    expect(found.lpPools.every((p: { pair: string }) => p.pair.includes('USDC'))).toBe(true);
  });

  it('a demo wallet executes the deposit plan into a named vault, then the rebalance plan into the best one: shares as expected, the underlying moved', async () => {
    const demo = demoAccount(7).address;
    await mintUsdc(demo, '10000', w.rpcUrl);
    const live = w.labels.vaults.filter((l) => l.asset.toLowerCase() === USDC.toLowerCase() && !l.deprecated).sort((a, b) => a.incomeApyPct - b.incomeApyPct);
    const [low, best] = [live[0]!, live.at(-1)!];

    const plan = await buy('yield-vault-deposit-plan', { chain: 'base', vault: low.vault, amount: '2500', wallet: demo });
    expect(plan).toMatchObject({ custody: 'none', amount: '2500', wallet: demo });
    expect(plan.transactions.map((t: { action: string }) => t.action)).toEqual(['approve', 'deposit']);
    expect(plan.transactions[0].gas.source).toBe('estimateGas');
    expect(plan.transactions[1].gas).toMatchObject({ source: 'stated', why: expect.stringContaining('approval') });
    const [usdcBefore, assetsBefore] = [await balanceOf(USDC, demo), await w.client.readContract({ address: low.vault, abi: erc4626Abi, functionName: 'totalAssets' })];
    const receipts = await execute(demo, plan.transactions);
    expect(receipts[1]!.gasUsed).toBeLessThanOrEqual(STATED_GAS.deposit);
    const shares = await balanceOf(low.vault, demo);
    expect(shares).toBe(parseUnits(plan.expectedShares, 6));
    expect(usdcBefore - (await balanceOf(USDC, demo))).toBe(2_500_000_000n);
    expect((await w.client.readContract({ address: low.vault, abi: erc4626Abi, functionName: 'totalAssets' })) - assetsBefore).toBe(2_500_000_000n);

    const move = await buy('yield-rebalance', { chain: 'base', wallet: demo, fromVault: low.vault });
    expect(move.to.address.toLowerCase()).toBe(best.vault.toLowerCase());
    expect(move.apyGainPct).toBeGreaterThan(0);
    expect(move.transactions.map((t: { action: string }) => t.action)).toEqual(['redeem', 'approve', 'deposit']);
    const redeemable = parseUnits(move.amount, 6);
    const usdcMid = await balanceOf(USDC, demo);
    await execute(demo, move.transactions);
    expect(await balanceOf(low.vault, demo)).toBe(0n);
    expect(await balanceOf(best.vault, demo)).toBe(parseUnits(move.expectedShares, 6));
    // What the shares redeemed went on into the better vault: the wallet's USDC is where it was.
    expect(await balanceOf(USDC, demo)).toBe(usdcMid);
    expect(redeemable).toBeGreaterThanOrEqual(2_500_000_000n - 1n);
  });

  it('a depositor who never left the deprecated vault finds its shares in the forgotten-assets scan, with what they redeem', async () => {
    const dead = w.labels.vaults.find((l) => l.deprecated)!;
    expect(dead.deprecatedAt, 'the world deprecated it within its history').not.toBeNull();
    const holder = dead.holdersLeft[0]!;
    expect(holder).toBeDefined();
    const scan = await buy('forgotten-assets-scan', { address: holder, chain: 'base' });
    const item = scan.chains[0].items.find((i: { token: string }) => i.token.toLowerCase() === dead.vault.toLowerCase());
    expect(item, JSON.stringify(scan.chains[0].items).slice(0, 300)).toMatchObject({ kind: 'deprecated-vault', vault: { deprecated: true } });
    const shares = await balanceOf(dead.vault, holder);
    expect(parseUnits(item.balance, 6)).toBe(shares);
    const assets = await w.client.readContract({ address: dead.vault, abi: erc4626Abi, functionName: 'convertToAssets', args: [shares] });
    expect(parseUnits(item.redeemable, 6)).toBe(assets);
    expect(scan.methodology).toContain('deprecated');
  });

  it('bad input and plans the wallet cannot execute: a 400 naming the field, before any 402', async () => {
    const demo = freshAddress(); // holds nothing
    const dead = w.labels.vaults.find((l) => l.deprecated)!;
    const live = w.labels.vaults.find((l) => !l.deprecated && l.asset.toLowerCase() === USDC.toLowerCase())!;
    const cases: [string, Record<string, unknown>, string][] = [
      ['vaults-list', { chain: 'solana' }, 'params.chain'],
      ['yield-discover', { asset: 'not a token!' }, 'params.asset'],
      ['yield-deposit', { asset: 'USDC', amount: '-5', wallet: demo }, 'params.amount'],
      ['yield-vault-deposit-plan', { vault: '0x123', amount: '1', wallet: demo }, 'params.vault'],
      ['yield-rebalance', { wallet: demo }, 'params.fromVault'],
      // The request alone decides these once the chain is read: refused before payment too.
      ['yield-vault-deposit-plan', { vault: live.vault, amount: '1000000', wallet: demo }, 'amount'],
      ['yield-vault-deposit-plan', { vault: live.vault, amount: '1.1234567', wallet: demo }, 'amount'],
      ['yield-vault-deposit-plan', { vault: dead.vault, amount: '1', wallet: demo }, 'vault'],
      ['yield-vault-deposit-plan', { vault: USDC, amount: '1', wallet: demo }, 'vault'],
      ['yield-rebalance', { wallet: demo, fromVault: live.vault }, 'fromVault'],
    ];
    for (const [skill, params, field] of cases) {
      const res = await postJson(`${w.sibyl.url}/api/a2a/skills/${skill}`, { params });
      const body = await json(res);
      expect(res.status, `${skill} ${JSON.stringify(params)}: ${JSON.stringify(body)}`).toBe(400);
      expect(body.error.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
  });
});
