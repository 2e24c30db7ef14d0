/**
 * Every working skill answers what its output schema says (issue 14). Each is run once on a
 * world with history, admission first as every surface does, and its answer parsed with its
 * schema (fields it does not name included). A skill without a body here fails the test, so a
 * new skill cannot pass by being left out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAINS } from '../../chain/chains.js';
import { createRegistry } from '../../skills/index.js';
import { SibylError } from '../../skills/errors.js';
import { assertAnswer } from '../../skills/output-check.js';
import type { Skill } from '../../skills/registry.js';
import { startWorldSibyl, type WorldSibyl } from '../helpers/world.js';

const registry = createRegistry();
let w: WorldSibyl;

beforeAll(async () => {
  w = await startWorldSibyl('sec-b', 3);
}, 120_000);
afterAll(() => w?.close());

async function run(skill: Skill, body: Record<string, unknown>) {
  const input = skill.input.parse(body);
  await skill.admit?.(input, w.sibyl.context);
  const answer = await skill.handler(input, w.sibyl.context);
  assertAnswer(skill.id, skill.output, answer);
  return answer as Record<string, any>;
}

describe('every working skill answers its output schema', () => {
  it('on the world, once each', { timeout: 240_000 }, async () => {
    const by = (id: string) => registry.byId(id)!;
    // A wallet and a transaction of the world, for the skills that take one.
    const whales = await run(by('whale-tracking'), { chain: 'base', limit: 5, timeperiod: '30d' });
    const pairs = await run(by('latest-pairs'), { chain: 'base', limit: 5 });
    const wallet: string = whales.events[0]?.wallet ?? whales.wallets[0]?.wallet;
    const txHash: string = whales.events[0]?.tx ?? pairs.pairs[0].createdTx;
    expect(wallet).toMatch(/^0x/);
    const list = { chain: 'base', limit: 5 };
    const token = { tokenAddress: 'WETH', chain: 'base' };
    const backtest = { token: 'WETH', chain: 'base', timeframe: '1h', periodDays: 2, fastWindow: 5, slowWindow: 10 };
    const bodies: Record<string, Record<string, unknown>> = {
      'whale-tracking': { chain: 'base', limit: 5, timeperiod: '30d' },
      'latest-pairs': list,
      'wallet-portfolio': { walletAddress: wallet, chain: 'base' },
      tokenchart: { ...token, forecast: true },
      'tokenchart-raw': token,
      ohlcv: token,
      'top-tokens': list,
      topvolume: list,
      'top-gainers': list,
      'token-sniping': token,
      'mev-detection': { ...list, timeperiod: '30d' },
      'holder-concentration': token,
      liquidityshifts: { ...list, timeperiod: '30d' },
      'arbitrage-scanner': list,
      'flashloan-opportunities': list,
      'smart-money': { ...list, timeperiod: '30d' },
      dexcapital: list,
      'investment-report': { chains: ['base'], limit: 5 },
      'creator-launches': { timeperiod: '30d' },
      'creator-volume': { timeperiod: '30d' },
      'virtual-pools': { timeperiod: '7d', minVolumeUsd: 0 },
      'security-scan': token,
      'curve-launches': { minVolumeUsd: 0 },
      'curve-volume': {},
      'curve-graduation': { minProgressPct: 0 },
      'general-analysis': { prompt: 'What are the newest pairs on base?' },
      'chart-forecast': { token: 'WETH', chain: 'base' },
      'technical-analysis': { token: 'WETH', chain: 'base', timeframe: '1h', candles: 40 },
      'strategy-backtest': backtest,
      'backtest-custom-strategy': backtest,
      'backtest-strategy': { ...backtest, strategy: 'buy-and-hold' },
      'wallet-pnl': { walletAddress: wallet, chain: 'base' },
      'wallet-trust-score': { walletAddress: wallet, chain: 'base' },
      'transaction-debugger': { txHash, chain: 'base' },
      'fund-flow-trace': { txHash, chain: 'base', hops: 1 },
      'contract-review': { address: CHAINS.base.usdc, chain: 'base' },
      'smart-contract-audit': { address: CHAINS.base.usdc, chain: 'base' },
      'defi-yield-analysis': { chain: 'base', timeperiod: '24h' },
      'altcoin-season-index': { chain: 'base', timeperiod: '24h' },
      'copy-trading-leaderboard': { chain: 'base', timeperiod: '30d', minClosedTrades: 1 },
      'copy-trading-intel': { walletAddress: wallet, chain: 'base' },
      'cross-chain-arbitrage': {},
      'mev-protection': token,
      'chain-markets': { limit: 10 },
      'top-gainers-comprehensive': { chain: 'base' },
    };
    const working = registry.list().filter((s) => !s.disabledReason);
    expect(working.filter((s) => !bodies[s.id]).map((s) => s.id), 'working skills without a body here').toEqual([]);
    const failures: string[] = [];
    for (const skill of working) {
      // Each skill once (the two above already passed through run).
      if (skill.id === 'whale-tracking' || skill.id === 'latest-pairs') continue;
      await run(skill, bodies[skill.id]!).catch((err: Error) => failures.push(`${skill.id}: ${err.message}`));
    }
    expect(failures).toEqual([]);
  });

  it('planned skills never answer: they refuse with domain_disabled (their schema is empty)', async () => {
    for (const skill of registry.list().filter((s) => s.disabledReason)) {
      const err = await skill.handler(skill.input.parse({}), w.sibyl.context).catch((e: unknown) => e);
      expect(err, skill.id).toBeInstanceOf(SibylError);
      expect((err as SibylError).code).toBe('domain_disabled');
    }
  });
});
