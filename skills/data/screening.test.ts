import { zeroAddress, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../store/memory.js';
import { addr, answerProbes, Fixture, units, withNative } from './testing/fixtures.js';
import { screenList, screenTokens } from './screening.js';
import { securityVerdict } from '../security/scan.js';

const T = {
  CLEAN: addr(0x101), HONEY: addr(0x102), TAXED: addr(0x103), MINTER: addr(0x104), FEES: addr(0x105), RENOUNCED: addr(0x106), NOCODE: addr(0x107), NOROUTE: addr(0x108), TEN: addr(0x109),
  PULLABLE: addr(0x10a),
};
/** Sell tax each token's transfers take, in % (HONEY keeps 95%). */
const SELL_TAX: Record<string, bigint> = { [T.HONEY]: 95n, [T.TAXED]: 12n, [T.TEN]: 10n };
// PUSH4 of transfer(address,uint256) a9059cbb, mint(address,uint256) 40c10f19, setFee(uint256) 69fe0e2d.
const CODE: Record<string, `0x${string}`> = { [T.CLEAN]: '0x63a9059cbb', [T.HONEY]: '0x63a9059cbb', [T.TAXED]: '0x63a9059cbb', [T.MINTER]: '0x6340c10f19', [T.FEES]: '0x6369fe0e2d', [T.RENOUNCED]: '0x6340c10f19', [T.NOROUTE]: '0x63a9059cbb', [T.TEN]: '0x63a9059cbb', [T.PULLABLE]: '0x63a9059cbb' };
const DEAD = '0x000000000000000000000000000000000000dead' as Address;
/** The checkpoint: 25 h after the pools' first liquidity. */
const HEAD = 100;

/**
 * `token` as an established listing: its deployer mints 1,000,000, puts 700,000 and 35 WETH in its
 * pool, burns its LP and the rest of its supply, and ten wallets buy 10,000 each, over a day before
 * the checkpoint ($160k deep). PULLABLE instead is the issue's: LP kept, one buyer, 75/25.
 */
function listToken(fx: Fixture, token: Address, n: number) {
  const deployer = addr(0xd00 + n);
  const pair = addr(0x9100 + n);
  fx.transfer(3, token, zeroAddress, deployer, units(1_000_000, 18), fx.tx(deployer));
  fx.answer(token, 'totalSupply', () => units(1_000_000, 18));
  fx.pool(pair, token, fx.weth, 0n, 0n, { block: 4 });
  const add = fx.tx(deployer);
  fx.transfer(10, token, deployer, pair, units(700_000, 18), add);
  fx.transfer(10, pair, zeroAddress, deployer, 9_000n, add);
  fx.sync(10, pair, units(700_000, 18), units(35, 18), add);
  fx.mint(10, pair, units(700_000, 18), units(35, 18), add);
  const pullable = token === T.PULLABLE;
  if (!pullable) {
    fx.transfer(11, pair, deployer, DEAD, 9_000n);
    fx.transfer(11, token, deployer, DEAD, units(300_000, 18));
  }
  const buys = pullable ? [100_000] : Array.from({ length: 10 }, () => 10_000);
  let reserve = 700_000;
  buys.forEach((amount, i) => {
    const buyer = addr(0xb000 + n * 16 + i);
    const tx = fx.tx(buyer);
    reserve -= amount;
    fx.transfer(20 + i, token, pair, buyer, units(amount, 18), tx);
    fx.swap(20 + i, pair, { to: buyer, a1In: units(1, 18), a0Out: units(amount, 18) }, tx);
    fx.sync(20 + i, pair, units(reserve, 18), units(((35 * 700_000) / reserve).toFixed(18), 18), tx);
  });
}

/** Every token listed but NOROUTE (no pool) and NOCODE (listed, no code); the probe answers by the token at the end of its path. */
async function world(node: { calls: number; down: boolean } = { calls: 0, down: false }) {
  const fx = withNative(2_000);
  for (const [i, [name, token]] of Object.entries(T).entries()) {
    fx.token(token, name, 18);
    if (token !== T.NOROUTE) listToken(fx, token, i);
    if (CODE[token]) fx.code.set(token, CODE[token]);
    fx.answer(token, 'owner', () => (token === T.RENOUNCED ? '0x0000000000000000000000000000000000000000' : addr(0x0e1)));
  }
  answerProbes(fx, SELL_TAX, node);
  fx.at(HEAD, fx.ts(10) + 25 * 3600);
  fx.sync(HEAD, addr(0xe0), units(100, 18), units(200_000, 6));
  return fx.market(HEAD);
}

describe('screen/v2: the security verdict on every listed token', () => {
  it('fails what the verdict rates high or critical (honeypots, taxes of 10% or more, live mint, LP one wallet can pull with few holders and trades); fee powers are a risk, not a failure', async () => {
    const market = await world();
    const screen = await screenTokens(market, Object.values(T), new MemoryStore());
    const of = (t: string) => screen.of('base', t);
    expect(of(T.CLEAN)).toMatchObject({ screened: true, level: 'low', riskScore: 0, fails: false, risks: [] });
    expect(of(T.HONEY)).toMatchObject({ screened: true, fails: true, level: 'critical', honeypot: true, sellTaxPct: 95, failures: ['honeypot: a sell delivers 95% less than sent'] });
    expect(of(T.TAXED)).toMatchObject({ fails: true, level: 'high', honeypot: false, sellTaxPct: 12, failures: ['sell tax 12%'], risks: ['sell tax 12%'] });
    expect(of(T.TEN)).toMatchObject({ fails: true, sellTaxPct: 10 });
    expect(of(T.MINTER)).toMatchObject({ fails: true, livePowers: ['mint'], failures: ['owner can mint (mint(address,uint256))'] });
    expect(of(T.FEES)).toMatchObject({ fails: false, level: 'medium', livePowers: ['fees'], risks: ['owner can change fees (setFee(uint256))'] });
    expect(of(T.RENOUNCED)).toMatchObject({ fails: false, level: 'low', livePowers: [] });
    // The token: three medium factors together fail, and every one of them is named.
    const pullable = of(T.PULLABLE);
    expect(pullable).toMatchObject({ screened: true, fails: true, level: 'high', riskScore: 60 });
    expect(pullable.failures).toEqual(pullable.risks);
    expect(pullable.risks[0]).toMatch(/^LP can be pulled: one wallet \(0x0000000000000000000000000000000000000d09\) can withdraw 100%/);
    expect(pullable.risks.slice(1).map((r) => r.split(':')[0])).toEqual(['holders concentrated', 'unproven market']);
    // Undetermined is never a silent pass: each factor it could not read is named.
    expect(of(T.NOCODE)).toMatchObject({ screened: false, fails: false, risks: ['not screened: owner-powers not determined (no contract code at this address)'] });
    expect(of(T.NOROUTE)).toMatchObject({ screened: false, risks: expect.arrayContaining([expect.stringMatching(/^not screened: sell-simulation not determined \(no priced pool route/), 'not screened: lp-lock not determined (no pool of this token is indexed)']) });
    expect(of(addr(0x999))).toMatchObject({ screened: false, level: null, risks: ['not screened: not part of the screened set'] });
    expect(screen.summary('flagged')).toMatchObject({ blocks: { base: market.head.block }, tokensChecked: 10, unscreened: 2, failed: 5 });
  });

  it('the screen is the verdict: for every token, fails exactly when security-scan says high or critical, with its findings as risks, in order', async () => {
    const market = await world();
    const screen = await screenTokens(market, Object.values(T), new MemoryStore());
    for (const token of Object.values(T)) {
      const v = await securityVerdict(market, token);
      const s = screen.of('base', token);
      expect([s.level, s.riskScore, s.fails], token).toEqual([v.verdict, v.riskScore, ['high', 'critical'].includes(v.verdict)]);
      expect(s.risks, token).toEqual([...v.findings.map((f) => f.finding), ...v.undetermined.map((u) => `not screened: ${u.factor} not determined (${u.reason})`)]);
      expect(s.screened, token).toBe(v.undetermined.length === 0);
    }
  });

  it('a recommending list leaves failing rows out and fills from further down, screening only as deep as it must', async () => {
    const market = await world();
    const rows = [T.HONEY, T.CLEAN, T.MINTER, T.FEES, T.TAXED].map((token) => ({ token }));
    const r = await screenList(new MemoryStore(), rows, (row) => ({ market, token: row.token }), 2, 'excluded');
    expect(r.listed.map((x) => [x.token, x.flagged])).toEqual([[T.CLEAN, false], [T.FEES, false]]);
    expect(r.excluded.map((x) => x.token)).toEqual([T.HONEY, T.MINTER]);
    expect(r.screen).toMatchObject({ policy: 'excluded', tokensChecked: 4, failed: 2, excluded: 2, methodology: expect.stringContaining('screen/v2') });
  });

  it('a ranking list keeps every row and marks it', async () => {
    const market = await world();
    const rows = [T.HONEY, T.CLEAN, T.PULLABLE].map((token) => ({ token }));
    const r = await screenList(new MemoryStore(), rows, (row) => ({ market, token: row.token }), 5, 'flagged');
    expect(r.listed.map((x) => [x.token, x.screened, x.flagged])).toEqual([[T.HONEY, true, true], [T.CLEAN, true, false], [T.PULLABLE, true, true]]);
    expect(r.excluded).toEqual([]);
  });

  it('results are kept per checkpoint; a node that did not answer is asked again', async () => {
    const cache = new MemoryStore();
    const node = { calls: 0, down: true };
    const market = await world(node);
    expect((await screenTokens(market, [T.CLEAN], cache)).of('base', T.CLEAN)).toMatchObject({ screened: false, risks: [expect.stringContaining('the node did not answer')] });
    node.down = false;
    expect((await screenTokens(market, [T.CLEAN], cache)).of('base', T.CLEAN)).toMatchObject({ screened: true });
    const asked = node.calls;
    // Another Market at the same checkpoint (another instance on the same store) asks the node nothing.
    expect((await screenTokens(await world(node), [T.CLEAN], cache)).of('base', T.CLEAN)).toMatchObject({ screened: true });
    expect(node.calls).toBe(asked);
  });
});
