import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../store/memory.js';
import { addr, answerProbes, moved, units, withNative, type Fixture } from '../data/testing/fixtures.js';
import { investmentIdeas } from './engine.js';

const [A, B, C, HONEY, SMALL] = [addr(0xa), addr(0xb), addr(0xc), addr(0x4e), addr(0x5a)];
const [D, TAXED] = [addr(0xd), addr(0x7a)];

/**
 * A +50%, B +10%, C −30% and HONEY +200% over the 1 h period (prices move at block 50), each on
 * $60,000 of USDC ($120,000 of liquidity); SMALL +100% on $80,000. HONEY's sells lose 95%.
 */
async function report() {
  // The probe pays with WETH through WETH/USDC, USDC's deepest pool; WETH ($400,000 deep, flat) is a candidate too.
  const fx = withNative(2_000);
  fx.code.set(fx.weth, '0x63a9059cbb');
  moved(fx, A, 'A', 1, 1.5, 60_000);
  moved(fx, B, 'B', 1, 1.1, 60_000);
  moved(fx, C, 'C', 1, 0.7, 60_000);
  moved(fx, HONEY, 'HONEY', 1, 3, 60_000);
  moved(fx, SMALL, 'SMALL', 1, 2, 40_000);
  for (const t of [A, B, C, HONEY, SMALL]) fx.code.set(t, '0x63a9059cbb');
  answerProbes(fx, { [HONEY]: 95n });
  const market = await fx.market(100);
  const checkpoint = (await market.reader.checkpoint())!;
  const fromBlock = (await market.reader.firstBlockAtOrAfter(checkpoint.timestamp - 3_600))!;
  return investmentIdeas(market, checkpoint, '1h', fromBlock, new MemoryStore());
}

/** A buy of 10 tokens on a token's own USDC pool (token0) at block 60, inside the 1 h window. */
const traded = (fx: Fixture, pool: `0x${string}`) => fx.swap(60, pool, { to: addr(0x5001), a1In: units(10, 6), a0Out: units(10, 18) });

/**
 * The overview's movers: A +50% and D −40% never traded in the window; B +10% and C −30% did;
 * HONEY +200% traded but its sells lose 95%; TAXED −60% traded and loses 30% on a sell. All on
 * $60,000 of USDC.
 */
async function movers(opts: { risers: boolean }) {
  const fx = withNative(2_000);
  fx.code.set(fx.weth, '0x63a9059cbb');
  const list: [`0x${string}`, string, number, boolean][] = opts.risers
    ? [[A, 'A', 1.5, false], [B, 'B', 1.1, true], [C, 'C', 0.7, true], [D, 'D', 0.6, false], [HONEY, 'HONEY', 3, true], [TAXED, 'TAXED', 0.4, true]]
    : [[A, 'A', 1.5, false], [C, 'C', 0.7, true], [HONEY, 'HONEY', 3, true]];
  for (const [token, symbol, to, trades] of list) {
    const pool = moved(fx, token, symbol, 1, to, 60_000);
    if (trades) traded(fx, pool);
    fx.code.set(token, '0x63a9059cbb');
  }
  answerProbes(fx, { [HONEY]: 95n, [TAXED]: 30n });
  const market = await fx.market(100);
  const checkpoint = (await market.reader.checkpoint())!;
  const fromBlock = (await market.reader.firstBlockAtOrAfter(checkpoint.timestamp - 3_600))!;
  return (await investmentIdeas(market, checkpoint, '1h', fromBlock, new MemoryStore())).overview;
}

describe('investment-report/v2', () => {
  it('percentile ranks among the tokens that pass the screen: a honeypot neither ranks nor shifts the others', async () => {
    const r = await report();
    // Momentum ranks among A, B, WETH (0%), C: 3/3, 2/3, 1/3, 0/3 (× 0.4); no smart money, no volume: those ranks are 0.
    // Were HONEY (+200%) ranked, every one of these would drop.
    expect(r.ideas.map((i) => [i.symbol, i.score])).toEqual([['A', 0.4], ['B', 0.2667], ['WETH', 0.1333], ['C', 0]]);
    // The fixture indexes no mint, LP holder or totalSupply: the verdict names those as undetermined (screened: false), the honeypot fails anyway.
    expect(r.excluded).toEqual([expect.objectContaining({ token: expect.stringMatching(/4e$/i), symbol: 'HONEY', flagged: true, screened: false })]);
    expect(r.screen).toMatchObject({ policy: 'excluded', tokensChecked: 5, failed: 1, excluded: 1 });
    // Nothing traded in the window: no token is a gainer or a loser, however far its price moved.
    expect(r.overview).toMatchObject({ tokensPriced: 6, candidates: 4, topGainer: { available: false, qualified: 0 }, topLoser: { available: false, qualified: 0 }, smartWallets: 0 });
  });

  it('the overview\'s movers are the gainers\' and losers\' rankings\' first: rose (or fell) and traded, through the screen as those rankings apply it', async () => {
    const o = await movers({ risers: true });
    // A rose most but never traded; HONEY traded and rose more but fails the screen (a gain that cannot be taken).
    expect(o.topGainer).toMatchObject({ available: true, symbol: 'B', changePct: 10, criterion: expect.stringContaining('rose over the window and traded in it'), qualified: 2, flagged: false });
    // D fell more than C but never traded; TAXED fell most and traded: losers keep a failing token, flagged with its risk.
    expect(o.topLoser).toMatchObject({ available: true, symbol: 'TAXED', changePct: -60, criterion: expect.stringContaining('fell over the window and traded in it'), qualified: 2, flagged: true });
    expect((o.topLoser as { risks: string[] }).risks.join('; ')).toMatch(/sell tax 30%/);
  });

  it('no token qualifies as the top gainer: said with the reason, never padded with one that did not gain or cannot be sold', async () => {
    const o = await movers({ risers: false });
    // A rose without trading, HONEY rose and traded but fails the screen, C fell.
    expect(o.topGainer).toEqual({ available: false, criterion: expect.any(String), qualified: 1, reason: expect.stringMatching(/fails the screen/) });
    expect(o.topLoser).toMatchObject({ available: true, symbol: 'C', changePct: -30, qualified: 1, flagged: false });
  });

  it('states the figures and risks behind each idea', async () => {
    const c = (await report()).ideas.find((i) => i.symbol === 'C')!;
    expect(c.thesis).toEqual(['price down 30% over the period', 'traded 0x its liquidity']);
    // The screen's (security-scan's) findings first, then what the index shows.
    expect(c.risks[0]).toMatch(/^unproven market: only 0 trades in its pools/);
    expect(c.risks.slice(-3)).toEqual(['thin liquidity: $120,000', 'fell 30% over the period', 'no trades in the period']);
    expect(c.signals).toMatchObject({ changePct: -30, turnover: 0, smartMoneyNetUsd: 0, smartWallets: 0, liquidityUsd: 120_000 });
  });
});
