/**
 * Fixed-rate markets on the shared world (world/modules/fixed-yield.ts), bought as a client would:
 * every market the world created is found; each live market's implied APY is what the test itself
 * computes from its pair's reserves on chain (at the block the answer is as of) and its PT's
 * maturity; the variable rate is what vaults-list realises for the same vault; the short market
 * matured within the history, and the chain shows its PT redeemed. Over A2A and over MCP
 * (find_yield kind pendle), charged the spec's price; bad input is a 400 before any 402. Last, the
 * contracts do what the answer assumes: PT bought through the router redeems its face value once
 * the chain's clock passes maturity, YT pays the interest it accrued, PT + YT merge into shares.
 */
import { createWalletClient, encodeFunctionData, erc20Abi, erc4626Abi, formatUnits, http, maxUint256, parseEther, parseUnits, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SibylPrincipalToken, SibylV2Router, SibylYieldToken } from '../../chain/artifacts/index.js';
import { viemChain } from '../../chain/runtime.js';
import { fixedYieldSkill } from '../../skills/fixed-yield/fixed-yield.js';
import { freshAddress, json, mintUsdc, postJson, walletPoster } from '../helpers/sibyl.js';
import { SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';
import { creditedMcpClient } from '../helpers/mcp-credits.js';
import { startSharedWorldSibyl, type WorldSibyl } from '../helpers/world.js';

const YEAR_S = 365 * 86_400;
const PAIR_ABI = [
  { type: 'function', name: 'getReserves', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint112' }, { type: 'uint112' }, { type: 'uint32' }] },
  { type: 'function', name: 'token0', stateMutability: 'view', inputs: [], outputs: [{ type: 'address' }] },
] as const;
/**
 * How far a live market's implied rate may sit from the vault's true rate: the consensus rate
 * wanders about 12% (relative) around it, the keeper lets the pool stray 0.6 points, and the last
 * trade may have moved it about a point.
 */
const IMPLIED_TOLERANCE_PCT = 3;

let w: WorldSibyl;
beforeAll(async () => {
  w = await startSharedWorldSibyl();
}, 300_000);
afterAll(() => w?.close());

async function buy(skill: keyof typeof SPEC_SKILL_PRICE, params: Record<string, unknown>) {
  const p = await walletPoster(w.sibyl.url, '5', w.rpcUrl);
  const before = await p.balance();
  const res = await p.post(`/api/a2a/skills/${skill}`, { params });
  const body = await json(res);
  expect(res.status, JSON.stringify(body).slice(0, 400)).toBe(200);
  expect(before - (await p.balance())).toBe(SPEC_SKILL_PRICE[skill]);
  return body.response;
}

/** The PT price and implied APY the test computes itself from the chain at `block`, `at` seconds. */
async function fromChain({ pair, pt, underlying }: { pair: Address; pt: Address; underlying: Address }, block: bigint, at: number) {
  const [[r0, r1], token0, maturity, ptDecimals, underlyingDecimals] = await Promise.all([
    w.client.readContract({ address: pair, abi: PAIR_ABI, functionName: 'getReserves', blockNumber: block }),
    w.client.readContract({ address: pair, abi: PAIR_ABI, functionName: 'token0' }),
    w.client.readContract({ address: pt, abi: SibylPrincipalToken.abi, functionName: 'maturity' }),
    w.client.readContract({ address: pt, abi: erc20Abi, functionName: 'decimals' }),
    w.client.readContract({ address: underlying, abi: erc20Abi, functionName: 'decimals' }),
  ]);
  const [reservePt, reserveUnderlying] = token0.toLowerCase() === pt.toLowerCase() ? [r0, r1] : [r1, r0];
  const ptUnits = Number(formatUnits(reservePt, ptDecimals));
  const underlyingUnits = Number(formatUnits(reserveUnderlying, underlyingDecimals));
  const price = underlyingUnits / ptUnits;
  const ttm = Number(maturity) - at;
  return { price, ttm, maturity: Number(maturity), impliedPct: (Math.pow(1 / price, YEAR_S / ttm) - 1) * 100, liquidity: underlyingUnits + ptUnits * price };
}

describe('fixed-yield analysis on the world', () => {
  let answer: any;
  beforeAll(async () => {
    answer = await buy('fixed-yield-analysis', { chain: 'base', limit: 100 });
  }, 120_000);

  it('finds every market the world created, with its PT, YT, vault, maturity and pool', () => {
    const labelled = w.labels.fixedYield.markets;
    expect(labelled.length).toBeGreaterThanOrEqual(3);
    expect(answer.methodology).toContain('fixed-yield/v1');
    expect(answer.chainsRead[0]).toMatchObject({ chain: 'base', marketsFound: labelled.length });
    expect(answer.markets.map((m: { market: string }) => m.market.toLowerCase()).sort()).toEqual(labelled.map((l) => l.market.toLowerCase()).sort());
    for (const l of labelled) {
      const row = answer.markets.find((m: { market: string }) => m.market.toLowerCase() === l.market.toLowerCase());
      expect(row).toMatchObject({ chain: 'base', pt: { address: l.pt, decimals: 6 }, yt: { address: l.yt }, vault: { address: l.share, symbol: 'syUSDC' }, underlying: { address: l.underlying, symbol: 'USDC' } });
      expect(row.maturity).toBe(new Date(l.maturity * 1000).toISOString());
      expect(row.pt.symbol).toMatch(/^PT-syUSDC-\d{8}$/);
      if (row.pool) expect(row.pool.pair.toLowerCase()).toBe(l.pair.toLowerCase());
    }
  });

  it('each live market\'s implied APY is (1 / PT price)^(365 d / time to maturity) - 1 from the pair\'s reserves on chain, near the vault\'s true rate; liquidity both sides in USD', async () => {
    const block = BigInt(answer.chainsRead[0].asOf.block);
    const at = Date.parse(answer.chainsRead[0].asOf.timestamp) / 1000;
    const live = answer.markets.filter((m: { matured: boolean }) => !m.matured);
    expect(live.length).toBeGreaterThanOrEqual(2);
    for (const row of live) {
      const label = w.labels.fixedYield.markets.find((l) => l.market.toLowerCase() === row.market.toLowerCase())!;
      const chain = await fromChain(label, block, at);
      expect(row.ptPrice).toBeCloseTo(chain.price, 8);
      expect(row.impliedApyPct, row.pt.symbol).toBeCloseTo(chain.impliedPct, 3);
      expect(row.daysToMaturity).toBeCloseTo(chain.ttm / 86_400, 3);
      expect(row.liquidityUsd).toBeCloseTo(chain.liquidity, 1);
      expect(Math.abs(row.impliedApyPct - label.vaultApyPct), `${row.pt.symbol}: implied ${row.impliedApyPct}% vs the vault's ${label.vaultApyPct}%`).toBeLessThanOrEqual(IMPLIED_TOLERANCE_PCT);
      expect(row.spreadPct).toBeCloseTo(row.impliedApyPct - row.variableApy.apyPct, 3);
    }
    // Best implied first among the live ones, matured ones last.
    const implied = live.map((m: { impliedApyPct: number }) => m.impliedApyPct);
    expect(implied).toEqual([...implied].sort((a, b) => b - a));
    expect(answer.markets.findIndex((m: { matured: boolean }) => m.matured)).toBeGreaterThanOrEqual(live.length);
  });

  it('the variable rate is the realised APY vaults-list gives the same vault, near its labelled true rate; the history is young and says so', async () => {
    const vaults = await buy('vaults-list', { chain: 'base', limit: 100 });
    for (const row of answer.markets) {
      const vault = vaults.chains[0].vaults.find((v: { vault: string }) => v.vault.toLowerCase() === row.vault.address.toLowerCase());
      expect(vault, row.vault.address).toBeDefined();
      const realised = vault.apy['7d'] ?? vault.apy['30d'];
      expect(row.variableApy.window).toBe(vault.apy['7d'] ? '7d' : '30d');
      // Both read the same share-price history: equal at one head; the payments between the two
      // calls mine blocks, and a later head annualises over a few more seconds.
      const sameHead = answer.chainsRead[0].asOf.block === vaults.chains[0].asOf.block;
      expect(row.variableApy.apyPct).toBeCloseTo(realised.apyPct, sameHead ? 3 : 1);
      const label = w.labels.vaults.find((l) => l.vault.toLowerCase() === row.vault.address.toLowerCase())!;
      expect(Math.abs(row.variableApy.apyPct - label.incomeApyPct)).toBeLessThanOrEqual(Math.max(0.1, label.incomeApyPct * 0.08));
      expect(row.notes.map((n: { kind: string }) => n.kind)).toContain('young-history');
    }
  });

  it('the short market matured within the history: no implied rate, flagged; its LP and keeper redeemed their PT at par (the chain shows it burnt)', async () => {
    const matured = answer.markets.filter((m: { matured: boolean }) => m.matured);
    expect(matured).toHaveLength(1);
    const [row] = matured;
    expect(row).toMatchObject({ impliedApyPct: null, spreadPct: null, daysToMaturity: 0 });
    expect(row.notes.map((n: { kind: string }) => n.kind)).toContain('matured');
    const redeemed = w.labels.fixedYield.redemptions.filter((r) => r.market.toLowerCase() === row.market.toLowerCase());
    expect(redeemed.map((r) => r.holder).sort()).toEqual([w.labels.fixedYield.actors!.lp, w.labels.fixedYield.actors!.keeper].sort());
    for (const r of redeemed) expect(await w.client.readContract({ address: row.pt.address, abi: erc20Abi, functionName: 'balanceOf', args: [r.holder] })).toBe(0n);
  });

  it('over MCP: find_yield kind pendle debits the skill\'s price from the credits and answers what A2A answers', async () => {
    const { client, credits } = await creditedMcpClient(w.sibyl.url, w.rpcUrl);
    try {
      const result = await client.callTool({ name: 'find_yield', arguments: { chain: 'base', kind: 'pendle', limit: 100 } });
      const body = result.structuredContent as any;
      expect(body).toMatchObject({ available: true, skill: 'fixed-yield-analysis', kind: 'pendle' });
      const balance = await credits();
      expect(1_000_000n - balance).toBe(SPEC_SKILL_PRICE['fixed-yield-analysis']);
      // The same markets; the implied rate a block or two later (time to maturity moves with the chain's clock) within 0.01 points.
      expect(body.markets.map((m: { market: string }) => m.market)).toEqual(answer.markets.map((m: { market: string }) => m.market));
      body.markets.forEach((m: { market: string; impliedApyPct: number | null }, i: number) => {
        const then = answer.markets[i].impliedApyPct as number | null;
        if (then === null) expect(m.impliedApyPct, m.market).toBeNull();
        else expect(Math.abs(m.impliedApyPct! - then), m.market).toBeLessThanOrEqual(0.01);
      });
    } finally {
      await client.close();
    }
  });

  it('bad input: a 400 naming the field, before any 402; a chain without a DEX index refused uncharged', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ chain: 'solana' }, 'params.chain'],
      [{ chain: 'base', limit: 0 }, 'params.limit'],
      [{ limit: 101 }, 'params.limit'],
      [{ chain: 'base', maturity: '2027' }, 'params'],
    ];
    for (const [params, field] of cases) {
      const res = await postJson(`${w.sibyl.url}/api/a2a/skills/fixed-yield-analysis`, { params });
      const body = await json(res);
      expect(res.status, `${JSON.stringify(params)}: ${JSON.stringify(body)}`).toBe(400);
      expect(body.error.fields.map((f: { field: string }) => f.field).join(' ')).toContain(field);
    }
    // No chain: every indexed chain (not a default one).
    expect(fixedYieldSkill.input.parse({})).toEqual({ limit: 10 });
    const res = await postJson(`${w.sibyl.url}/api/a2a/skills/fixed-yield-analysis`, { params: { chain: 'zksync' } });
    expect(res.status).not.toBe(402);
    expect((await json(res)).error.code).toBe('chain_unavailable');
  });

  // Last: it moves the chain's clock past a maturity.
  it('the contracts do what the answer assumes: PT bought at the pool\'s price redeems its face value at maturity, YT pays the yield it accrued, PT + YT merge back into shares', async () => {
    const row = answer.markets.filter((m: { matured: boolean }) => !m.matured).sort((a: { daysToMaturity: number }, b: { daysToMaturity: number }) => a.daysToMaturity - b.daysToMaturity)[0];
    const label = w.labels.fixedYield.markets.find((l) => l.market.toLowerCase() === row.market.toLowerCase())!;
    const { lp } = w.labels.fixedYield.actors!;
    const send = async (from: Address, to: Address, data: Hex) => {
      const hash = await createWalletClient({ account: from, chain: viemChain('base', w.rpcUrl), transport: http(w.rpcUrl) }).sendTransaction({ to, data } as never);
      expect((await w.client.waitForTransactionReceipt({ hash })).status).toBe('success');
    };
    const balance = (token: Address, of: Address) => w.client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [of] });
    const yt = (fn: string, args: readonly unknown[]) => encodeFunctionData({ abi: SibylYieldToken.abi, functionName: fn, args } as never);

    // A buyer locks the fixed rate: 1,000 USDC for PT through the router, at the pool's price less the fee and its own impact.
    const buyer = freshAddress();
    await w.client.request({ method: 'anvil_setBalance' as never, params: [buyer, `0x${parseEther('10').toString(16)}`] as never });
    await mintUsdc(buyer, '1000', w.rpcUrl);
    const router = w.labels.contracts.routers[0]!;
    await send(buyer, label.underlying, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, maxUint256] }));
    await send(buyer, router, encodeFunctionData({ abi: SibylV2Router.abi, functionName: 'swapExactTokensForTokens', args: [parseUnits('1000', 6), 0n, [label.underlying, label.pt], buyer, 2n ** 40n] }));
    const pt = await balance(label.pt, buyer);
    expect(Number(formatUnits(pt, 6))).toBeGreaterThan(1000);
    expect(1000 / Number(formatUnits(pt, 6))).toBeGreaterThanOrEqual(row.ptPrice);

    // YT accrues the share's yield: the LP's pending interest is paid in shares when claimed.
    const pending = await w.client.readContract({ address: label.yt, abi: SibylYieldToken.abi, functionName: 'pendingInterest', args: [lp] });
    expect(pending).toBeGreaterThan(0n);
    const sharesBefore = await balance(label.share, lp);
    await send(lp, label.yt, yt('claimInterest', [lp]));
    expect((await balance(label.share, lp)) - sharesBefore).toBe(pending);

    // Before maturity PT + YT merge into the shares they are worth at the market's index.
    const index = await w.client.readContract({ address: label.yt, abi: SibylYieldToken.abi, functionName: 'currentIndex' });
    const merged = 100_000_000n;
    const beforeMerge = await balance(label.share, lp);
    await send(lp, label.yt, yt('merge', [merged, lp]));
    expect((await balance(label.share, lp)) - beforeMerge).toBe((merged * 10n ** 18n) / index);

    // At maturity the buyer's PT redeems shares worth its face value in USDC.
    const maturity = Number(await w.client.readContract({ address: label.pt, abi: SibylPrincipalToken.abi, functionName: 'maturity' }));
    const now = Number((await w.client.getBlock()).timestamp);
    await w.client.request({ method: 'evm_increaseTime' as never, params: [maturity - now + 60] as never });
    await w.client.request({ method: 'evm_mine' as never, params: [] as never });
    await send(buyer, label.yt, yt('redeemPrincipal', [pt, buyer]));
    expect(await balance(label.pt, buyer)).toBe(0n);
    const shares = await balance(label.share, buyer);
    const worth = await w.client.readContract({ address: label.share, abi: erc4626Abi, functionName: 'convertToAssets', args: [shares] });
    expect(pt - worth).toBeGreaterThanOrEqual(0n);
    expect(pt - worth).toBeLessThanOrEqual(1n);
  });
});
