import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../store/memory.js';
import { addr, answerProbes, units, withNative } from './testing/fixtures.js';
import { screenList, screenTokens } from './screening.js';

const T = { CLEAN: addr(0x101), HONEY: addr(0x102), TAXED: addr(0x103), MINTER: addr(0x104), FEES: addr(0x105), RENOUNCED: addr(0x106), NOCODE: addr(0x107), NOROUTE: addr(0x108), TEN: addr(0x109) };
/** Sell tax each token's transfers take, in % (HONEY keeps 95%). */
const SELL_TAX: Record<string, bigint> = { [T.HONEY]: 95n, [T.TAXED]: 12n, [T.TEN]: 10n };
// PUSH4 of transfer(address,uint256) a9059cbb, mint(address,uint256) 40c10f19, setFee(uint256) 69fe0e2d.
const CODE: Record<string, `0x${string}`> = { [T.CLEAN]: '0x63a9059cbb', [T.HONEY]: '0x63a9059cbb', [T.TAXED]: '0x63a9059cbb', [T.MINTER]: '0x6340c10f19', [T.FEES]: '0x6369fe0e2d', [T.RENOUNCED]: '0x6340c10f19', [T.NOROUTE]: '0x63a9059cbb', [T.TEN]: '0x63a9059cbb' };

/** Every token on a 10-WETH pool but NOROUTE; the probe answers by the token at the end of its path. */
async function world(node: { calls: number; down: boolean } = { calls: 0, down: false }) {
  const fx = withNative(2_000);
  for (const [name, token] of Object.entries(T)) {
    fx.token(token, name, 18);
    if (token !== T.NOROUTE) fx.pool(addr(0x9100 + Number(BigInt(token))), token, fx.weth, units(1_000, 18), units(10, 18));
    if (CODE[token]) fx.code.set(token, CODE[token]);
    fx.answer(token, 'owner', () => (token === T.RENOUNCED ? '0x0000000000000000000000000000000000000000' : addr(0x0e1)));
  }
  answerProbes(fx, SELL_TAX, node);
  return fx.market();
}

describe('screen/v1', () => {
  it('fails honeypots, taxes of 10% or more and live mint/blacklist/pause; fee powers are a risk, not a failure', async () => {
    const market = await world();
    const screen = await screenTokens(market, Object.values(T), new MemoryStore());
    const of = (t: string) => screen.of('base', t);
    expect(of(T.CLEAN)).toMatchObject({ screened: true, fails: false, risks: [] });
    expect(of(T.HONEY)).toMatchObject({ screened: true, fails: true, honeypot: true, sellTaxPct: 95 });
    expect(of(T.TAXED)).toMatchObject({ fails: true, honeypot: false, sellTaxPct: 12, failures: ['sell tax 12%'] });
    expect(of(T.TEN)).toMatchObject({ fails: true, sellTaxPct: 10 });
    expect(of(T.MINTER)).toMatchObject({ fails: true, livePowers: ['mint'] });
    expect(of(T.FEES)).toMatchObject({ fails: false, livePowers: ['fees'], risks: ['owner can fees (setFee(uint256))'] });
    expect(of(T.RENOUNCED)).toMatchObject({ fails: false, livePowers: [] });
    // Undetermined is never a silent pass.
    expect(of(T.NOCODE)).toMatchObject({ screened: false, fails: false, risks: ['not screened: owner powers unknown (no contract code at this address)'] });
    expect(of(T.NOROUTE)).toMatchObject({ screened: false, risks: [expect.stringContaining('no buy-and-sell simulation')] });
    expect(of(addr(0x999))).toMatchObject({ screened: false, risks: ['not screened: not part of the screened set'] });
    expect(screen.summary('flagged')).toMatchObject({ blocks: { base: market.head.block }, tokensChecked: 9, unscreened: 2, failed: 4 });
  });

  it('a recommending list leaves failing rows out and fills from further down, screening only as deep as it must', async () => {
    const market = await world();
    const rows = [T.HONEY, T.CLEAN, T.MINTER, T.FEES, T.TAXED].map((token) => ({ token }));
    const r = await screenList(new MemoryStore(), rows, (row) => ({ market, token: row.token }), 2, 'excluded');
    expect(r.listed.map((x) => [x.token, x.flagged])).toEqual([[T.CLEAN, false], [T.FEES, false]]);
    expect(r.excluded.map((x) => x.token)).toEqual([T.HONEY, T.MINTER]);
    expect(r.screen).toMatchObject({ policy: 'excluded', tokensChecked: 4, failed: 2, excluded: 2 });
  });

  it('a ranking list keeps every row and marks it', async () => {
    const market = await world();
    const rows = [T.HONEY, T.CLEAN].map((token) => ({ token }));
    const r = await screenList(new MemoryStore(), rows, (row) => ({ market, token: row.token }), 5, 'flagged');
    expect(r.listed.map((x) => [x.token, x.screened, x.flagged])).toEqual([[T.HONEY, true, true], [T.CLEAN, true, false]]);
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
