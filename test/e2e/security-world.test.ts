/**
 * rug-pull-scanner on a world's own listings, picked from its labels (a honeypot, a 25% sell
 * tax, owner powers, a rug, an honest listing, and a listing like the one a paying trader found: LP all
 * with its creator and unlocked, a couple of holders, one trade), paid with the official client.
 * Verdicts are checked against the labels; taxes, powers, LP, holders and trades against real
 * transactions and raw logs on the chain. Every token the rankings list carries the same verdict
 * the scan gives, at the same block. Then the rugger lists again, and the scan of the new token
 * names its past.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPublicClient, createWalletClient, encodeFunctionData, http, parseAbi, parseAbiItem, parseEther, zeroAddress, type Abi, type Address, type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DemoToken, OwnerPowersToken, SibylV2Pair, SibylV2Router, WrappedNative } from '../../chain/artifacts/index.js';
import { CHAINS } from '../../chain/chains.js';
import { unreachable } from '../../skills/security/simulate.js';
import { viemChain } from '../../chain/runtime.js';
import { fundedPayer, json, payingFetch, postJson, untilIndexed, usdcBalance } from '../helpers/sibyl.js';
import { startSharedWorldSibyl, type WorldSibyl } from '../helpers/world.js';
import { createRegistry } from '../../skills/catalog/index.js';

const erc20 = parseAbi([
  'function approve(address, uint256) returns (bool)', 'function balanceOf(address) view returns (uint256)',
  'function transfer(address, uint256) returns (bool)', 'function totalSupply() view returns (uint256)',
]);
const weth = CHAINS.base.wrappedNative;
const FAR = 2n ** 40n;
const SCAN = '/x402/data/rug-pull-scanner';
const SWAP = parseAbiItem('event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)');
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const FAILING = ['high', 'critical'];

describe('rug-pull-scanner on a world\'s labelled listings', () => {
  let w: WorldSibyl;
  let router: Address;
  const trader = privateKeyToAccount(generatePrivateKey());
  const scans = new Map<string, any>();

  const rpc = (method: string, params: unknown[]) =>
    fetch(w.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  /** Sends as `from` (a local key, or a world address the node impersonates) and returns the receipt status. */
  const send = async (from: typeof trader | Address, address: Address, abi: Abi, functionName: string, args: unknown[], value?: bigint) => {
    const wallet = createWalletClient({ account: from, chain: viemChain('base', w.rpcUrl), transport: http(w.rpcUrl) });
    const hash = await wallet.writeContract({ address, abi, functionName, args, value, gas: 5_000_000n } as never);
    return (await w.client.waitForTransactionReceipt({ hash })).status;
  };
  const balanceOf = (token: Address, holder: Address) => w.client.readContract({ address: token, abi: erc20, functionName: 'balanceOf', args: [holder] });
  const reservesOf = async (pair: Address, tokenIn: Address) => {
    const [r0, r1] = (await w.client.readContract({ address: pair, abi: SibylV2Pair.abi, functionName: 'getReserves' })) as unknown as [bigint, bigint];
    const token0 = (await w.client.readContract({ address: pair, abi: SibylV2Pair.abi, functionName: 'token0' })) as Address;
    return token0.toLowerCase() === tokenIn.toLowerCase() ? { rIn: r0, rOut: r1, inIs0: true } : { rIn: r1, rOut: r0, inIs0: false };
  };
  const quoteOf = async (pair: Address, token: Address) => {
    const [t0, t1] = await Promise.all(['token0', 'token1'].map((f) => w.client.readContract({ address: pair, abi: SibylV2Pair.abi, functionName: f as 'token0' })));
    return ((t0 as Address).toLowerCase() === token.toLowerCase() ? t1 : t0) as Address;
  };
  /** A real buy of `token` with 0.05 WETH through the first DEX's router; returns what arrived. */
  const buyForReal = async (token: Address, pair: Address) => {
    const quote = await quoteOf(pair, token);
    const path = quote.toLowerCase() === weth.toLowerCase() ? [weth, token] : [weth, quote, token];
    const before = await balanceOf(token, trader.address);
    expect(await send(trader, router, SibylV2Router.abi as Abi, 'swapExactTokensForTokens', [parseEther('0.05'), 0n, path, trader.address, FAR])).toBe('success');
    return { quote, bought: (await balanceOf(token, trader.address)) - before };
  };
  const scan = async (token: Address) => {
    if (!scans.has(token)) {
      const res = await w.post(SCAN, { tokenAddress: token });
      expect(res.status).toBe(200);
      scans.set(token, await json(res));
    }
    return scans.get(token);
  };
  const label = (kind: string, rug = false) => {
    const found = w.labels.tokens.find((t) => t.kind === kind && t.pair && t.rug === rug);
    expect(found, `the world has a ${kind} listing${rug ? ' that was rugged' : ''}`).toBeDefined();
    return found! as typeof found & { pair: Address };
  };

  /** A labelled listing as the issue found one: not a planned rug, its pool traded exactly once (Swap logs on chain). */
  let thin: { token: Address; symbol: string; creator: Address; pair: Address };
  /** The rankings and every scan, read before any test trades in the world (one checkpoint). */
  let board: any;
  let gainers: any;

  beforeAll(async () => {
    w = await startSharedWorldSibyl();
    const listings = w.labels.tokens.filter((t) => t.kind === 'listing' && !t.rug && t.pair);
    const swaps = await Promise.all(listings.map((t) => w.client.getLogs({ address: t.pair!, event: SWAP, fromBlock: 0n })));
    const once = listings.filter((_, i) => swaps[i]!.length === 1);
    expect(once.length, 'the world holds an unrugged listing traded exactly once').toBeGreaterThan(0);
    thin = once[once.length - 1]! as typeof thin;
    board = await json(await w.post('/x402/data/top-tokens', { chain: 'base', limit: 500, timeperiod: '7d' }));
    gainers = (await json(await w.post('/api/a2a/skills/top-gainers', { params: { chain: 'base', limit: 50, timeperiod: '7d' } }))).response;
    await scan(thin.token);
    router = w.labels.contracts.routers[0]!;
    await rpc('anvil_setBalance', [trader.address, `0x${parseEther('100').toString(16)}`]);
    expect(await send(trader, weth, WrappedNative.abi as Abi, 'deposit', [], parseEther('10'))).toBe('success');
    expect(await send(trader, weth, erc20, 'approve', [router, 2n ** 255n])).toBe('success');
    // The scans read the world as it stands, before this test trades in it.
    for (const t of [label('honeypot'), label('taxed'), label('owner-powers'), label('listing')]) await scan(t.token);
    expect(w.labels.rugs.length).toBeGreaterThan(0);
    await scan(w.labels.rugs[0]!.token);
  }, 300_000);
  afterAll(() => w?.close());

  it('a listing like the issue\'s (LP all with its creator, unlocked; a few holders; one trade) is not low risk, and its LP factor says one wallet can pull it', async () => {
    const report = await scan(thin.token);
    // What the chain says: the creator holds every LP token outside the zero address, the pool swapped once, and who holds the token.
    /** Balances replayed from a token's Transfer logs on chain, zero and burn addresses left out. */
    const holdersOf = async (token: Address) => {
      const balances = new Map<string, bigint>();
      for (const t of await w.client.getLogs({ address: token, event: TRANSFER, fromBlock: 0n })) {
        balances.set(t.args.from!.toLowerCase(), (balances.get(t.args.from!.toLowerCase()) ?? 0n) - t.args.value!);
        balances.set(t.args.to!.toLowerCase(), (balances.get(t.args.to!.toLowerCase()) ?? 0n) + t.args.value!);
      }
      return [...balances].filter(([a, v]) => v > 0n && a !== zeroAddress && a !== '0x000000000000000000000000000000000000dead').sort((a, b) => (b[1] > a[1] ? 1 : -1));
    };
    // Every LP token anyone holds is the creator's, and it sits in its wallet (no code), not in a locker.
    expect((await holdersOf(thin.pair)).map(([a]) => a)).toEqual([thin.creator.toLowerCase()]);
    expect(await w.client.getCode({ address: thin.creator })).toBeUndefined();
    const outside = (await holdersOf(thin.token)).filter(([a]) => a !== thin.pair.toLowerCase());
    const circulating = outside.reduce((s, [, v]) => s + v, 0n);
    expect(outside.length, 'a few holders').toBeLessThan(10);

    expect(report.verdict).not.toBe('low');
    expect(FAILING).toContain(report.verdict);
    const factor = (name: string) => report.factors.find((f: any) => f.factor === name);
    expect(factor('lp-lock')).toMatchObject({ available: true, severity: 'medium', value: 100, evidence: { wallet: thin.creator.toLowerCase() } });
    expect(factor('lp-lock').finding).toMatch(new RegExp(`^LP can be pulled: one wallet \\(${thin.creator.toLowerCase()}\\) can withdraw 100% .* holding 100% of its only pool's LP; not locked`));
    expect(factor('trading-activity')).toMatchObject({ severity: 'medium', value: 1 });
    expect(factor('holder-concentration')).toMatchObject({ severity: expect.stringMatching(/medium|high/), evidence: { holderCount: outside.length, top: expect.arrayContaining([{ address: outside[0]![0], pct: expect.any(Number) }]) } });
    expect(factor('holder-concentration').value).toBeCloseTo(Number((outside[0]![1] * 1_000_000n) / circulating) / 10_000, 2);
    for (const f of report.factors) expect([f.threshold, f.source].every((x: string) => x.length > 0), f.factor).toBe(true);
    expect(report.findings.map((f: any) => f.factor)).toEqual(expect.arrayContaining(['lp-lock', 'holder-concentration', 'trading-activity']));
    expect(report.riskScore).toBe(report.findings.reduce((s: number, f: any) => s + f.points, 0));
  });

  it('top-tokens and top-gainers carry the same verdict for it: flagged, with the LP named; never a gainer', async () => {
    const row = board.tokens.find((t: any) => t.token.toLowerCase() === thin.token.toLowerCase());
    expect(row, `top-tokens lists ${thin.symbol}`).toBeDefined();
    expect(row).toMatchObject({ screened: true, flagged: true });
    expect(row.risks.join('; ')).toMatch(/LP can be pulled: one wallet/);
    expect(gainers.tokens.map((t: any) => t.token.toLowerCase())).not.toContain(thin.token.toLowerCase());
    const apart = gainers.excludedByScreen.find((t: any) => t.token.toLowerCase() === thin.token.toLowerCase());
    if (apart) expect(apart).toMatchObject({ flagged: true, risks: expect.arrayContaining([expect.stringMatching(/^LP can be pulled/)]) });
  });

  it('a sweep of every token top-tokens ranks: its row and security-scan agree at the same block (flagged exactly when high or critical, risks = findings)', async () => {
    // Skill handlers, not paid calls: a settlement is a block, and the sweep must read one checkpoint.
    await untilIndexed(w.sibyl.url);
    const registry = createRegistry();
    const run = (id: string, input: unknown) => registry.byId(id)!.handler(registry.byId(id)!.input.parse(input), w.sibyl.context) as Promise<any>;
    const ranked = await run('top-tokens', { chain: 'base', limit: 500, timeperiod: '7d' });
    const gaining = await run('top-gainers', { chain: 'base', limit: 500, timeperiod: '7d' });
    expect(ranked.tokens.length).toBeGreaterThan(10);
    expect(ranked.methodology).toContain('screen/v2');
    const levels = new Set<string>();
    const verdicts = new Map<string, string>();
    for (const row of ranked.tokens) {
      const report = await run('security-scan', { tokenAddress: row.token, chain: 'base' });
      expect(report.asOf.block, row.symbol).toBe(ranked.asOf.block);
      levels.add(report.verdict);
      verdicts.set(row.token.toLowerCase(), report.verdict);
      expect(row.flagged, `${row.symbol}: ${report.verdict}`).toBe(FAILING.includes(report.verdict));
      expect(row.risks.filter((r: string) => !r.startsWith('not screened')), row.symbol).toEqual(report.findings.map((f: any) => f.finding));
      expect(row.screened, row.symbol).toBe(report.undetermined.length === 0);
    }
    // The sweep saw both sides of the line, the token among the failing.
    expect([...levels].some((l) => FAILING.includes(l)) && [...levels].some((l) => !FAILING.includes(l))).toBe(true);
    expect(FAILING).toContain(verdicts.get(thin.token.toLowerCase()));
    // A gainer is never a token security-scan rates high or critical; every one it left out is.
    for (const row of gaining.tokens) expect(FAILING, row.symbol).not.toContain(verdicts.get(row.token.toLowerCase()));
    for (const row of gaining.excludedByScreen) expect(FAILING, row.symbol).toContain(verdicts.get(row.token.toLowerCase()));
  });

  it('asked whether the LP can be pulled, the report answers from the LP factor, not from a level alone', async () => {
    const res = await w.post('/x402/svc/report', { prompt: `Can the LP of ${thin.symbol} on base be pulled?` });
    const answer = await json(res);
    expect(res.status, JSON.stringify(answer).slice(0, 300)).toBe(200);
    expect(answer.toolsUsed.map((t: any) => t.skill)).toContain('security-scan');
    expect(answer.analysis).toMatch(/LP can be pulled: one wallet/);
    expect(answer.analysis).not.toMatch(/risk low/);
  });

  it('a labelled honeypot is one: the simulated sell reverts, and so does a real one', async () => {
    const honey = label('honeypot');
    const report = await scan(honey.token);
    expect(report).toMatchObject({ chain: 'base', honeypot: true, verdict: 'critical', methodology: expect.stringContaining('security/v2') });
    expect(report.simulation).toMatchObject({ available: true, buyReverted: false, sellReverted: true });
    const { quote, bought } = await buyForReal(honey.token, honey.pair);
    expect(bought).toBeGreaterThan(0n);
    expect(await send(trader, honey.token, erc20, 'approve', [router, 2n ** 255n])).toBe('success');
    expect(await send(trader, router, SibylV2Router.abi as Abi, 'swapExactTokensForTokens', [bought, 0n, [honey.token, quote], trader.address, FAR])).toBe('reverted');
    // The symbol resolves to the same token.
    const bySymbol = await json(await w.post(SCAN, { tokenAddress: honey.symbol }));
    expect(bySymbol.token.address.toLowerCase()).toBe(honey.token.toLowerCase());
  });

  it('a labelled taxed token: the sell tax the scan reports is what a real sell loses in transfer', async () => {
    const taxed = label('taxed');
    const report = await scan(taxed.token);
    expect(report.honeypot).toBe(false);
    expect(report.simulation.buyTaxPct).toBe(0);
    expect(report.findings.some((f: { finding: string }) => /^sell tax/.test(f.finding))).toBe(true);
    // A real sell done by hand: send to the pair, see what arrived, swap exactly that.
    const { quote, bought } = await buyForReal(taxed.token, taxed.pair);
    const { rIn, rOut, inIs0 } = await reservesOf(taxed.pair, taxed.token);
    expect(await send(trader, taxed.token, erc20, 'transfer', [taxed.pair, bought])).toBe('success');
    const arrived = (await balanceOf(taxed.token, taxed.pair)) - rIn;
    const realTaxPct = (1 - Number(arrived) / Number(bought)) * 100;
    expect(report.simulation.sellTaxPct).toBeCloseTo(realTaxPct, 1);
    expect(realTaxPct).toBeGreaterThan(20);
    const out = (arrived * 997n * rOut) / (rIn * 1000n + arrived * 997n);
    const quoteBefore = await balanceOf(quote, trader.address);
    expect(await send(trader, taxed.pair, SibylV2Pair.abi as Abi, 'swap', [inIs0 ? 0n : out, inIs0 ? out : 0n, trader.address, '0x'])).toBe('success');
    expect((await balanceOf(quote, trader.address)) - quoteBefore).toBe(out); // sellable: taxed, not a honeypot
  });

  it('a labelled owner-powers token: the powers found in its bytecode are live for its owner only', async () => {
    const token = label('owner-powers');
    const report = await scan(token.token);
    expect(report.ownerPowers).toMatchObject({ available: true, renounced: false });
    expect(report.ownerPowers.powers).toEqual(expect.arrayContaining(['mint', 'blacklist', 'pause']));
    expect(report.ownerPowers.owner.toLowerCase()).toBe(token.creator.toLowerCase());
    expect(report.honeypot).toBe(false);
    expect(['medium', 'high', 'critical']).toContain(report.verdict);
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    for (const [functionName, args] of [['mint', [stranger, 1n]], ['setBlacklisted', [stranger, true]], ['setPaused', [true]]] as const) {
      await expect(w.client.simulateContract({ account: token.creator, address: token.token, abi: OwnerPowersToken.abi, functionName, args } as never)).resolves.toBeDefined();
      await expect(w.client.simulateContract({ account: stranger, address: token.token, abi: OwnerPowersToken.abi, functionName, args } as never)).rejects.toThrow();
    }
  });

  it('a labelled rug: its creator took the LP back, as the Burn logs and the pool on chain show', async () => {
    const rug = w.labels.rugs[0]!;
    const report = await scan(rug.token);
    expect(report).toMatchObject({ rugged: true, verdict: 'critical' });
    expect(report.deployer.address).toBe(rug.creator.toLowerCase());
    const pool = report.liquidity.find((p: { pool: string }) => p.pool === rug.pair.toLowerCase());
    expect(pool).toMatchObject({ provider: rug.creator.toLowerCase(), providerHoldsPct: 0, pulled: true });
    expect(await balanceOf(rug.pair, rug.creator)).toBe(0n);
    const burns = await w.client.getLogs({ address: rug.pair, event: parseAbiItem('event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)'), fromBlock: 0n });
    expect(burns.map((b) => b.blockNumber)).toContain(BigInt(rug.block));
    const quote = await quoteOf(rug.pair, rug.token);
    const quoteIs0 = quote.toLowerCase() < rug.token.toLowerCase();
    const burnedQuote = burns.reduce((s, b) => s + (quoteIs0 ? b.args.amount0! : b.args.amount1!), 0n);
    expect(pool.removedQuote).toBeCloseTo(Number(burnedQuote) / 1e18, 4);
    expect(pool.removedPct).toBeGreaterThan(99);
    expect(pool.lpRedeemedPct).toBeGreaterThan(99);
    expect(pool.removedUsd).toBeGreaterThan(0);
    const { rIn: quoteLeft } = await reservesOf(rug.pair, quote);
    expect(Number(quoteLeft) / 1e18).toBeLessThan(pool.addedQuote * 0.01);
  });

  it('a labelled honest listing: no tax in a real buy and sell, LP held by its creator (so it can be pulled: never low), not rugged', async () => {
    const honest = label('listing');
    const report = await scan(honest.token);
    expect(report).toMatchObject({ honeypot: false, rugged: false });
    expect(report.verdict).not.toBe('low');
    expect(report.factors.find((f: any) => f.factor === 'lp-lock')).toMatchObject({ severity: 'medium', evidence: { wallet: honest.creator.toLowerCase() } });
    expect(report.simulation).toMatchObject({ buyTaxPct: 0, sellTaxPct: 0, sellReverted: false });
    // A real round trip pays exactly the router's quote on both legs: nothing is withheld.
    const { quote, bought } = await buyForReal(honest.token, honest.pair);
    const [, expected] = (await w.client.readContract({ address: router, abi: SibylV2Router.abi, functionName: 'getAmountsOut', args: [bought, [honest.token, quote]] })) as readonly bigint[];
    expect(await send(trader, honest.token, erc20, 'approve', [router, 2n ** 255n])).toBe('success');
    const before = await balanceOf(quote, trader.address);
    expect(await send(trader, router, SibylV2Router.abi as Abi, 'swapExactTokensForTokens', [bought, 0n, [honest.token, quote], trader.address, FAR])).toBe('success');
    expect((await balanceOf(quote, trader.address)) - before).toBe(expected);
    const pool = report.liquidity.find((p: { pool: string }) => p.pool === honest.pair.toLowerCase());
    const [creatorLp, supply] = await Promise.all([balanceOf(honest.pair, honest.creator), w.client.readContract({ address: honest.pair, abi: erc20, functionName: 'totalSupply' })]);
    expect(pool.lp.largestHolder).toBe(honest.creator.toLowerCase());
    expect(pool.lp.largestHolderPct).toBeCloseTo((Number(creatorLp) / Number(supply)) * 100, 2);
    expect(pool.removedPct ?? 0).toBe(0);
  });

  it('the rugger lists a new token: the scan names the deployer and its rugged past', async () => {
    const rug = w.labels.rugs[0]!;
    const creator = rug.creator;
    const wallet = createWalletClient({ account: creator, chain: viemChain('base', w.rpcUrl), transport: http(w.rpcUrl) });
    const hash = await wallet.deployContract({ abi: DemoToken.abi as Abi, bytecode: DemoToken.bytecode as Hex, args: ['Again', 'AGAIN', 18, parseEther('1000000'), creator], gas: 3_000_000n } as never);
    const token = (await w.client.waitForTransactionReceipt({ hash })).contractAddress!;
    expect(await send(creator, weth, WrappedNative.abi as Abi, 'deposit', [], parseEther('5'))).toBe('success');
    for (const t of [weth, token]) expect(await send(creator, t, erc20, 'approve', [router, 2n ** 255n])).toBe('success');
    expect(await send(creator, router, SibylV2Router.abi as Abi, 'addLiquidity', [token, weth, parseEther('500000'), parseEther('5'), 0n, 0n, creator, FAR])).toBe('success');
    await untilIndexed(w.sibyl.url);
    const report = await scan(token);
    expect(report.deployer).toMatchObject({ address: creator.toLowerCase(), via: 'first-mint' });
    expect(report.deployer.otherTokens).toBeGreaterThanOrEqual(1);
    expect(report.deployer.checked).toContainEqual(expect.objectContaining({ token: rug.token.toLowerCase(), rugged: true }));
    expect(report.findings.some((f: { finding: string }) => /deployer's other tokens include/.test(f.finding))).toBe(true);
  });

  it('a node that refuses the call is a revert; one that does not answer is no verdict at all', async () => {
    const data = encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [trader.address, 10n ** 40n] });
    const call = (client: typeof w.client) => client.call({ account: privateKeyToAccount(generatePrivateKey()).address, to: CHAINS.base.usdc, data, gas: 1_000_000n }).then(() => null, (e: unknown) => e);
    const reverted = await call(w.client);
    expect(reverted).toBeInstanceOf(Error);
    expect(unreachable(reverted)).toBe(false);
    const dead = await call(createPublicClient({ transport: http('http://127.0.0.1:1', { retryCount: 0 }) }) as typeof w.client);
    expect(dead).toBeInstanceOf(Error);
    expect(unreachable(dead)).toBe(true);
  });

  it('input edges: symbols of 2-15 characters, 0x + 40 hex, the five chains; unindexed chains and unknown tokens cost nothing', async () => {
    const refused = async (body: unknown, field: string, rule: RegExp) => {
      const res = await postJson(`${w.sibyl.url}${SCAN}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json(res)).error.fields.some((f: { field: string; rule: string }) => f.field === field && rule.test(f.rule))).toBe(true);
    };
    await refused({ tokenAddress: `0x${'a'.repeat(39)}` }, 'tokenAddress', /40 hex/);
    await refused({ tokenAddress: `0x${'a'.repeat(41)}` }, 'tokenAddress', /40 hex/);
    await refused({ tokenAddress: 'A' }, 'tokenAddress', /2-15/);
    await refused({ tokenAddress: 'A'.repeat(16) }, 'tokenAddress', /2-15/);
    await refused({ tokenAddress: 42 }, 'tokenAddress', /string/);
    await refused({ tokenAddress: 'ETH', chain: 'optimism' }, 'chain', /must be one of ethereum, base, bsc, arbitrum, polygon/);
    await refused({ tokenAddress: 'ETH', timeperiod: '24h' }, 'timeperiod', /unknown field/);
    // Valid shapes pass validation; a token the index does not know is refused before any 402.
    for (const body of [{ tokenAddress: 'AB' }, { tokenAddress: 'A'.repeat(15) }, { tokenAddress: `0x${'A'.repeat(40)}` }]) {
      const res = await postJson(`${w.sibyl.url}${SCAN}`, body);
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.headers.get('payment-required')).toBeNull();
    }
    expect((await postJson(`${w.sibyl.url}${SCAN}`, { tokenAddress: 'AERO' })).status).toBe(402); // known: priced
    const { key, account } = await fundedPayer('1', w.rpcUrl);
    const pay = payingFetch(key).pay;
    const paid = (body: unknown) => pay(`${w.sibyl.url}${SCAN}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const unknown = await paid({ tokenAddress: 'A'.repeat(15) });
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error.code).toBe('token_not_found');
    const unindexed = await paid({ tokenAddress: 'ETH', chain: 'polygon' });
    expect(unindexed.status).toBe(503);
    expect((await json(unindexed)).error.code).toBe('chain_unavailable');
    expect(await usdcBalance(account.address, w.rpcUrl)).toBe(1_000_000n);
    // chain defaults to base; the wrapped native has no route from itself, which is said, not guessed.
    const native = await json(await paid({ tokenAddress: 'ETH' }));
    expect(native.chain).toBe('base');
    expect(native.simulation).toMatchObject({ available: false, reason: expect.any(String) });
  });
});
