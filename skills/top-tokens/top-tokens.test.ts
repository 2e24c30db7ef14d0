import { describe, expect, it } from 'vitest';
import type { SkillContext } from '../core/context.js';
import { addr, moved, T0, tokenUsdc, trade, type Fixture } from '../data/testing/fixtures.js';
import { rankingSummary, rankings } from './top-tokens.js';

/** A skill context over a fixture's index: its chain and its store, nothing else. */
const contextOf = (fx: Fixture) => ({ chains: { get: () => fx.chain() }, store: fx.store }) as unknown as SkillContext;

/**
 * The head is block 1,000 (T0 + 2,000); a 1 h window begins at T0 − 1,600. TKN traded once, at
 * block 100 (T0 + 200, inside), at an unchanged $5. DRIFT rose $5 -> $6 at block 50 (inside) by a
 * bare Sync: no trade.
 */
async function quiet() {
  const fx = tokenUsdc();
  fx.at(1, T0 - 10_000);
  moved(fx, addr(0x3002), 'DRIFT', 5, 6);
  trade(fx, 100, addr(0x111), 'buy', 1, 5);
  await fx.market(1_000);
  return contextOf(fx);
}

describe('rankings without padding', () => {
  it('nothing rose and traded: gainers are available: false with the reason, not a padded list', async () => {
    const answer = await rankings(await quiet(), { chain: 'base', limit: 50, timeperiod: '1h' }, 'changePct', 'gainers');
    expect(answer).toMatchObject({ available: false, criterion: 'rose over the window and traded in it', qualified: 0, count: 0, tokens: [], totalTokens: 2 });
    expect(answer.reason).toBe('no priced token on base rose over the window and traded in it over 1h');
    expect(rankingSummary(answer)).toBe('no priced token on base rose over the window and traded in it over 1h.');
  });

  it('the volume ranking lists only what traded, and says how many qualified', async () => {
    const answer = await rankings(await quiet(), { chain: 'base', limit: 50, timeperiod: '1h' }, 'volumeUsd');
    expect(answer).toMatchObject({ available: true, criterion: 'traded in the window', qualified: 1, count: 1, totalTokens: 2 });
    expect(answer.tokens.map((t) => t.symbol)).toEqual(['TKN']);
  });
});
