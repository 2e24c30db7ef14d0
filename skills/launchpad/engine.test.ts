import { describe, expect, it } from 'vitest';
import { addr, T0, units, withNative, type Fixture } from '../data/testing/fixtures.js';
import { byRadarOrder, launches, type Launch } from './engine.js';

const [VENUE, MUTE_VENUE, CREATOR, CURVE, IDLE, GRAD, GRAD_PAIR, UNKNOWN] = [addr(0x7e2), addr(0x7e3), addr(0xc4e), addr(0xc1), addr(0xc2), addr(0x91), addr(0x92), addr(0xc3)];
const [A, B] = [addr(0xa1), addr(0xb1)];
const HEAD = T0 + 2 * 86_400;

/**
 * WETH $2,000. VENUE's constants: 1 ETH and 1,000 tokens virtual, 750 on the curve: a curve holds
 * 1·1000/(1000 − 750) − 1 = 3 ETH when its last token is sold. Head block 100, two days after T0.
 */
function world(): Fixture {
  const fx = withNative(2_000);
  fx.at(100, HEAD);
  fx.answer(VENUE, 'VIRTUAL_ETH_START', () => units(1, 18));
  fx.answer(VENUE, 'VIRTUAL_TOKEN_START', () => units(1_000, 18));
  fx.answer(VENUE, 'CURVE_SUPPLY', () => units(750, 18));
  // CURVE: 0.5 ETH two days ago, then +1 and −0.25 ETH within the last 24 h.
  fx.launched(2, VENUE, CURVE, CREATOR, 'CRV');
  fx.curveTrade(10, VENUE, CURVE, A, { isBuy: true, eth: 0.5, tokens: 100, realEth: 0.5, progressBps: 1_667 });
  fx.at(90, HEAD - 3_600).curveTrade(90, VENUE, CURVE, B, { isBuy: true, eth: 1, tokens: 150, realEth: 1.5, progressBps: 5_000 });
  fx.at(95, HEAD - 1_800).curveTrade(95, VENUE, CURVE, A, { isBuy: false, eth: 0.25, tokens: 25, realEth: 1.25, progressBps: 4_167 });
  fx.launched(3, VENUE, IDLE, CREATOR, 'IDLE');
  fx.launched(4, MUTE_VENUE, UNKNOWN, CREATOR, 'MUTE');
  fx.curveTrade(95, MUTE_VENUE, UNKNOWN, A, { isBuy: true, eth: 0.1, tokens: 10, realEth: 0.1, progressBps: 100 });
  // GRAD graduated at block 50 to GRAD/WETH (GRAD's address is lower: token0); a swap before it is not the venue's.
  fx.token(GRAD, 'GRAD', 18);
  fx.launched(5, VENUE, GRAD, CREATOR, 'GRAD');
  fx.pool(GRAD_PAIR, GRAD, fx.weth, units(1_000_000, 18), units(5, 18), { block: 6 });
  fx.swap(40, GRAD_PAIR, { to: A, a1In: units(9, 18), a0Out: units(1, 18) });
  fx.graduated(50, VENUE, GRAD, GRAD_PAIR);
  fx.swap(60, GRAD_PAIR, { to: A, a1In: units(2, 18), a0Out: units(1_000, 18) });
  fx.swap(70, GRAD_PAIR, { to: B, a0In: units(500, 18), a1Out: units(1, 18) });
  return fx;
}

const byToken = (all: Launch[], token: string) => all.find((l) => l.token === token)!;

describe('launchpad/v2', () => {
  it('a curve: raised ETH as the venue reports it, pace over the last 24 h, ETA to the venue\'s target', async () => {
    const all = await launches(await world().market(100), 90);
    const c = byToken(all, CURVE);
    expect(c).toMatchObject({ progressPct: 41.67, raisedEth: 1.25, raisedUsd: 2_500, lastPriceEth: 0.01, lastPriceUsd: 20, graduated: null, dex: null });
    // Needs 3 − 1.25 = 1.75 ETH; net 1 − 0.25 = 0.75 ETH in 24 h = 0.03125 ETH/h: 56 h.
    expect(c.toGraduate).toEqual({
      ethNeeded: 1.75, netEthInflow: 0.75, ethPerHour: 0.03125, paceWindowHours: 24,
      etaHours: 56, estimatedGraduationAt: new Date((HEAD + 56 * 3_600) * 1000).toISOString(), noPaceReason: null,
    });
    // The period from block 90: one buy, one sell, two traders, 1.25 ETH at $2,000.
    expect(c.period).toEqual({ buys: 1, sells: 1, traders: 2, curveVolumeEth: 1.25, curveVolumeUsd: 2_500, dexVolumeUsd: 0, volumeUsd: 2_500 });
    expect(c.lifetime).toEqual({ buys: 2, sells: 1, traders: 2 });
  });

  it('a curve never traded, and a venue whose constants cannot be read: no estimate, with the reason', async () => {
    const all = await launches(await world().market(100), 0);
    expect(byToken(all, IDLE).toGraduate).toMatchObject({ ethNeeded: 3, etaHours: null, noPaceReason: 'never traded' });
    expect(byToken(all, UNKNOWN).toGraduate).toMatchObject({ ethNeeded: null, etaHours: null, noPaceReason: expect.stringContaining('could not be read') });
  });

  it('after graduation: the graduated pair\'s swaps from the Graduated event on, valued on the WETH side', async () => {
    const g = byToken(await launches(await world().market(100), 0), GRAD);
    expect(g.graduated).toMatchObject({ pair: GRAD_PAIR, block: 50 });
    expect(g.toGraduate).toBeNull();
    // Block 60: 2 WETH in (a buy); block 70: 1 WETH out (a sell). The swap at block 40 predates graduation.
    expect(g.dex).toEqual({ pair: GRAD_PAIR, swaps: 2, buys: 1, sells: 1, volumeEth: 3, volumeUsd: 6_000 });
    expect(g.period).toMatchObject({ dexVolumeUsd: 6_000, volumeUsd: 6_000 });
    // Priced by its pair now: 5 WETH / 1,000,000 GRAD at $2,000.
    expect(g.lastPriceUsd).toBeCloseTo(0.01, 12);
  });

  it('radar order: soonest ETA, then curves without a pace (latest trade first), then graduated (latest first)', () => {
    const row = (id: string, etaHours: number | null, lastTradeAt: string | null, graduatedAt: string | null) => ({ id, etaHours, lastTradeAt, graduatedAt, progressPct: 0 });
    const rows = [
      row('grad-old', null, null, '2024-01-01T00:00:00Z'), row('idle', null, '2024-01-02T00:00:00Z', null), row('slow', 30, null, null),
      row('grad-new', null, null, '2024-02-01T00:00:00Z'), row('fast', 2, null, null), row('idle-newer', null, '2024-01-03T00:00:00Z', null),
    ];
    expect(rows.sort(byRadarOrder).map((r) => r.id)).toEqual(['fast', 'slow', 'idle-newer', 'idle', 'grad-new', 'grad-old']);
  });
});
