/**
 * The screen on a world's own labelled listings (docs/skills.md, "The screen"): every list that recommends or
 * ranks tokens, paid for with the official client, against the world's labels. Which tokens are
 * traps comes from the labels (honeypot, taxed, owner-powers), never from the screen under test:
 * none may reach investment ideas, gainers or a planned buy, and each one a ranking lists must
 * carry its risk in words that match its labelled kind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createWalletClient, encodeFunctionData, http, parseAbi, parseEther, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { CHAINS } from '../../chain/chains.js';
import { viemChain } from '../../chain/runtime.js';
import { moversSnapshot } from '../../skills/movers/tools.js';
import { launchpadRadarSnapshot } from '../../skills/launchpad/radar.js';
import { json, rpc, untilIndexed } from '../helpers/sibyl.js';
import { startWorldSibyl, type WorldSibyl } from '../helpers/world.js';

type Kind = 'honeypot' | 'taxed' | 'owner-powers';
/** What a trap of each labelled kind must be flagged with, in the security engine's words. */
const RISK_OF: Record<Kind, RegExp> = {
  honeypot: /honeypot|buying reverts/,
  taxed: /sell tax 25%/,
  'owner-powers': /owner can (mint|blacklist|pause)/,
};

let w: WorldSibyl;
/** Labelled traps by lower-case address. */
let traps: Map<string, Kind>;
/** Every priced token's liquidity, from the top-tokens ranking (the market's figures, not the screen's). */
let liquid: Map<string, number>;

const paid = async (path: string, body: unknown) => {
  const res = await w.post(path, body);
  const answer = await json(res);
  expect(res.status, JSON.stringify(answer).slice(0, 300)).toBe(200);
  return answer;
};
/** A skill on the A2A surface, paid at its catalogue price. */
const skill = async (id: string, params: Record<string, unknown>) => (await paid(`/api/a2a/skills/${id}`, { params })).response;
const trapOf = (token: string) => traps.get(token.toLowerCase());

/** Every listed row that is a labelled trap carries the screen's flag and a risk naming its kind. */
function expectFlagged(rows: { token: string; flagged?: boolean; screened?: boolean; risks?: string[] }[], where: string): number {
  let seen = 0;
  for (const row of rows) {
    const kind = trapOf(row.token);
    expect(row.risks, `${where}: ${row.token} carries risks`).toBeInstanceOf(Array);
    if (row.screened === false) expect(row.risks!.some((r) => r.startsWith('not screened')), `${where}: ${row.token} says why it is not screened`).toBe(true);
    if (!kind) continue;
    seen++;
    expect(row.flagged, `${where}: labelled ${kind} ${row.token} is flagged`).toBe(true);
    expect(row.risks!.join('; '), `${where}: labelled ${kind} ${row.token}`).toMatch(RISK_OF[kind]);
  }
  return seen;
}

/** A fresh wallet buys a sellable labelled trap (owner powers, else a sell tax) with WETH, through its quote, and sells it back. */
async function roundTrip(): Promise<void> {
  const erc20 = parseAbi(['function approve(address, uint256) returns (bool)', 'function balanceOf(address) view returns (uint256)', 'function deposit() payable']);
  const pairAbi = parseAbi(['function token0() view returns (address)', 'function token1() view returns (address)']);
  const router = parseAbi(['function swapExactTokensForTokens(uint256, uint256, address[], address, uint256) returns (uint256[])']);
  const weth = CHAINS.base.wrappedNative;
  const sellable = w.labels.tokens.filter((x) => (x.kind === 'taxed' || x.kind === 'owner-powers') && x.pair && !x.rug);
  const t = [...sellable.filter((x) => x.kind === 'owner-powers'), ...sellable.filter((x) => x.kind === 'taxed')][0];
  expect(t, 'the world has a sellable trap').toBeDefined();
  const sides = await Promise.all([w.client.readContract({ address: t!.pair!, abi: pairAbi, functionName: 'token0' }), w.client.readContract({ address: t!.pair!, abi: pairAbi, functionName: 'token1' })]);
  const quote = sides.find((a) => a.toLowerCase() !== t!.token.toLowerCase())!;
  // Listings pair with WETH or (on Base) VIRTUAL, bought first with WETH in a trade of its own
  // (a trade is its recipient's: the trap's legs must pay out to this wallet, not to a next pool).
  const account = privateKeyToAccount(generatePrivateKey());
  await rpc(w.rpcUrl, 'anvil_setBalance', [account.address, `0x${parseEther('10').toString(16)}`]);
  const wallet = createWalletClient({ account, chain: viemChain('base', w.rpcUrl), transport: http(w.rpcUrl) });
  const send = async (to: Address, data: Hex, value = 0n) => {
    const receipt = await w.client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to, data, value, gas: 1_000_000n }) });
    expect(receipt.status).toBe('success');
  };
  const via = w.labels.contracts.routers[0]!;
  const swap = (path: Address[], amount: bigint) => send(via, encodeFunctionData({ abi: router, functionName: 'swapExactTokensForTokens', args: [amount, 0n, path, account.address, 2n ** 40n] }));
  await send(weth, encodeFunctionData({ abi: erc20, functionName: 'deposit' }), parseEther('1'));
  await send(weth, encodeFunctionData({ abi: erc20, functionName: 'approve', args: [via, 2n ** 255n] }));
  const balance = (token: Address) => w.client.readContract({ address: token, abi: erc20, functionName: 'balanceOf', args: [account.address] });
  if (quote.toLowerCase() !== weth.toLowerCase()) {
    await swap([weth, quote], parseEther('0.5'));
    await send(quote, encodeFunctionData({ abi: erc20, functionName: 'approve', args: [via, 2n ** 255n] }));
  }
  await swap([quote, t!.token], quote.toLowerCase() === weth.toLowerCase() ? parseEther('0.5') : await balance(quote));
  await send(t!.token, encodeFunctionData({ abi: erc20, functionName: 'approve', args: [via, 2n ** 255n] }));
  await swap([t!.token, quote], await balance(t!.token));
  await untilIndexed(w.sibyl.url);
}

beforeAll(async () => {
  w = await startWorldSibyl('screen-a', 3);
  traps = new Map(w.labels.tokens.filter((t) => t.kind === 'honeypot' || t.kind === 'taxed' || t.kind === 'owner-powers').map((t) => [t.token.toLowerCase(), t.kind as Kind]));
  const board = await paid('/x402/data/top-tokens', { chain: 'base', limit: 500, timeperiod: '7d' });
  liquid = new Map(board.tokens.map((t: any) => [t.token.toLowerCase(), t.liquidityUsd]));
}, 180_000);
afterAll(() => w?.close());

describe('the screen on a world\'s labelled listings', () => {

  it('top-tokens and topvolume keep every labelled trap they list, flagged with its risk, and say which screen ran', async () => {
    const byLiquidity = await paid('/x402/data/top-tokens', { chain: 'base', limit: 500, timeperiod: '7d' });
    const byVolume = await paid('/x402/data/topvolume', { chain: 'base', limit: 500, timeperiod: '7d' });
    for (const body of [byLiquidity, byVolume]) {
      expect(body.methodology).toContain('screen/v2');
      expect(body.screen).toMatchObject({ methodology: expect.stringContaining('screen/v2'), policy: 'flagged', excluded: 0, blocks: { base: Number(body.asOf.block) } });
      // Every token that qualifies is listed (the liquidity ranking: every priced one; the volume ranking: those that traded).
      expect(body.tokens.length).toBe(body.qualified);
    }
    const listed = expectFlagged(byLiquidity.tokens, 'top-tokens');
    const traded = new Set(byVolume.tokens.map((t: any) => t.token));
    expect(expectFlagged(byVolume.tokens, 'topvolume')).toBe(expectFlagged(byLiquidity.tokens.filter((t: any) => traded.has(t.token)), 'top-tokens, traded'));
    // The world's traps are on the board: the assertions above had something to check.
    expect(listed).toBeGreaterThanOrEqual(3);
    expect(new Set(byLiquidity.tokens.filter((t: any) => trapOf(t.token)).map((t: any) => trapOf(t.token))).size).toBe(3);
  });

  it('investment-report: no labelled trap is an idea; those liquid enough to be one are listed apart with their risk', async () => {
    const body = await paid('/x402/data/investment-report', { chains: ['base'], limit: 500, timeperiod: '7d' });
    expect(body.methodology).toContain('investment-report/v2');
    for (const idea of body.ideas) expect(trapOf(idea.token), `idea ${idea.symbol} is a labelled ${trapOf(idea.token)}`).toBeUndefined();
    const eligible = [...traps.keys()].filter((t) => (liquid.get(t) ?? 0) >= 100_000);
    expect(eligible.length, 'the world holds traps liquid enough to be ideas').toBeGreaterThan(0);
    const excluded = new Map(body.excludedByScreen.map((e: any) => [e.token.toLowerCase(), e]));
    for (const t of eligible) expect(excluded.has(t), `liquid ${trapOf(t)} ${t} is listed as excluded`).toBe(true);
    expectFlagged(body.excludedByScreen, 'investment-report excluded');
    expect(body.screen).toMatchObject({ policy: 'excluded', excluded: body.excludedByScreen.length });
    expect(body.perChain[0]).toMatchObject({ excludedCount: body.excludedByScreen.length, screen: { excluded: body.excludedByScreen.length } });
    // screened is false exactly where the screen could not decide, and then a risk says so; the summary counts them.
    for (const idea of body.ideas) expect(idea.screened, idea.symbol).toBe(!idea.risks.some((r: string) => r.startsWith('not screened')));
    expect([...body.ideas, ...body.excludedByScreen].filter((x: any) => !x.screened)).toHaveLength(body.screen.unscreened);
    const top = body.perChain[0].overview.topGainer;
    if (top.available) expect(trapOf(top.token), 'the overview\'s top gainer').toBeUndefined();
    else expect(top.reason).toMatch(/^(no token|every token)/);
  });

  it('gainers (top-gainers, alpha-ranked, the gainers board) never lead with, or list, a labelled trap', async () => {
    const gainers = await skill('top-gainers', { chain: 'base', limit: 500, timeperiod: '7d' });
    const alpha = await skill('top-gainers-comprehensive', { chain: 'base', limit: 100 });
    const board = await skill('chain-markets', { sort: 'gainers', limit: 500 });
    let apart = 0;
    for (const [name, body] of [['top-gainers', gainers], ['top-gainers-comprehensive', alpha], ['chain-markets gainers', board]] as const) {
      for (const row of body.tokens) expect(trapOf(row.token), `${name} lists ${row.symbol}`).toBeUndefined();
      expect(body.screen).toMatchObject({ policy: 'excluded', excluded: body.excludedByScreen.length });
      apart += expectFlagged(body.excludedByScreen, `${name} excluded`);
    }
    // Honeypots only ever rise (nobody can sell): the gainers' top would be theirs without the screen.
    expect(apart).toBeGreaterThan(0);
    const losers = await skill('chain-markets', { sort: 'losers', limit: 500 });
    expect(losers.screen.policy).toBe('flagged');
    expectFlagged(losers.tokens, 'chain-markets losers');
  });

  it('smart money and copy-trading show each labelled trap they bought with its risk', async () => {
    // A trader of this test's own closes a trade in a sellable trap, so the lists hold one whatever
    // the world's retail flow happened to buy.
    await roundTrip();
    const smart = await paid('/x402/data/smartmoney', { chain: 'base', limit: 500, timeperiod: '7d' });
    const leaders = await skill('copy-trading-leaderboard', { chain: 'base', limit: 100, timeperiod: '7d', minClosedTrades: 1 });
    let seen = expectFlagged([...smart.accumulating, ...smart.distributing, ...smart.wallets.flatMap((x: any) => x.period)], 'smartmoney');
    seen += expectFlagged(leaders.traders.flatMap((x: any) => x.period), 'copy-trading-leaderboard');
    expect(seen, 'snipers buy every listing, traps included').toBeGreaterThan(0);
    for (const body of [smart, leaders]) expect(body.screen).toMatchObject({ policy: 'flagged', methodology: expect.stringContaining('screen/v2') });
  });

  it('creator-launches never passes a token silently: one still on its curve is screened: false and says why', async () => {
    const body = await paid('/x402/data/creator-launches', { chain: 'base', limit: 25, timeperiod: '7d' });
    expect(body.tokens.length).toBeGreaterThan(0);
    expectFlagged(body.tokens, 'creator-launches');
    for (const row of body.tokens.filter((t: any) => t.graduated === null)) expect(row.screened, `${row.symbol} on its curve`).toBe(false);
    expect(body.screen.unscreened).toBe(body.tokens.filter((t: any) => !t.screened).length);
  });

  it('a trade plan refuses to plan the buy of a labelled honeypot and says why first; a taxed sell is planned around its tax', async () => {
    const honeypot = [...traps].find(([t, k]) => k === 'honeypot' && liquid.has(t))![0];
    const taxed = [...traps].find(([t, k]) => k === 'taxed' && liquid.has(t))![0];
    const refused = await paid('/x402/svc/report', { service: 'mev-protection', tokenAddress: honeypot, chain: 'base', side: 'buy', amountUsd: 1_000 });
    const plan = refused.results[0].result;
    expect(plan).toMatchObject({ planned: false, refusal: expect.stringMatching(/^no buy was planned/) });
    expect(plan.recommendation).toBeUndefined();
    const opening = refused.analysis.split('\n')[0]; // the verdict opens the answer
    expect(opening).toMatch(/^Do not buy \S+: no buy was planned: it fails screen\/v2 \((honeypot|buying reverts)/);
    expect(refused.analysis).not.toMatch(/set slippage/i);

    // Asked in plain words, the report agent opens with the refusal, not with slippage settings.
    const symbol = w.labels.tokens.find((t) => t.token.toLowerCase() === honeypot)!.symbol;
    const asked = await paid('/x402/svc/report', { prompt: `How do I buy $1,000 of ${symbol} on base without getting sandwiched?` });
    expect(asked.toolsUsed.map((t: any) => t.skill)).toContain('mev-protection');
    expect(asked.analysis).toMatch(new RegExp(`Do not buy ${symbol}: no buy was planned`));
    expect(asked.analysis).not.toMatch(/set slippage/i);
    expect(asked.provenance.find((p: any) => p.skill === 'mev-protection').screen).toMatchObject({ excluded: 1 });

    const sell = (await paid('/x402/svc/report', { service: 'mev-protection', tokenAddress: taxed, chain: 'base', side: 'sell', amountUsd: 1_000 })).results[0].result;
    expect(sell).toMatchObject({ planned: true, taxPct: 25, risks: expect.arrayContaining(['sell tax 25%']) });
    expect(sell.recommendation.slippagePct).toBeGreaterThan(25);
  });

  it('MCP top movers and launchpad radar carry the same screen', async () => {
    await w.sibyl.snapshots.run(moversSnapshot);
    await w.sibyl.snapshots.run(launchpadRadarSnapshot);
    const client = new Client({ name: 'sibyl-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${w.sibyl.url}/api/mcp`)));
    try {
      const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })).structuredContent as any;
      const gainers = await call('get_top_movers', { side: 'gainers', limit: 25 });
      for (const row of gainers.crossAsset.gainers) expect(trapOf(row.token), `MCP gainer ${row.symbol}`).toBeUndefined();
      expect(gainers.screen.gainers).toMatchObject({ policy: 'excluded', methodology: expect.stringContaining('screen/v2') });
      expectFlagged(gainers.excludedByScreen, 'get_top_movers excluded');
      const losers = await call('get_top_movers', { side: 'losers', limit: 25 });
      expectFlagged(losers.crossAsset.losers, 'get_top_movers losers');
      const radar = await call('get_launchpad_radar', { limit: 15 });
      expectFlagged(radar.rows.map((r: any) => ({ ...r, token: r.contractAddress })), 'get_launchpad_radar');
      expect(radar.screen).toMatchObject({ policy: 'flagged' });
    } finally {
      await client.close();
    }
  });
});
