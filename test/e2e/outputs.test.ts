/**
 * Every working skill answers what its output schema says (docs/architecture.md, "The registry"). Each is run once on a
 * world with history, admission first as every surface does, and its answer parsed with its
 * schema (fields it does not name included). A skill without a body here fails the test, so a
 * new skill cannot pass by being left out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAINS } from '../../chain/chains.js';
import { toolDirectory } from '../../cards/mcp-tools.js';
import { FORECAST_API_EXAMPLE_BODY } from '../../skills/forecast/inference.js';
import { precomputeMajors } from '../../skills/forecast/jobs.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { SibylError } from '../../skills/core/errors.js';
import { assertAnswer } from '../../skills/core/output-check.js';
import type { Skill } from '../../skills/core/registry.js';
import { startSharedWorldSibyl, type WorldSibyl } from '../helpers/world.js';
import { startTestBitcoin, type TestBitcoin } from '../helpers/bitcoin.js';
import { startQrngStub, type QrngStub } from '../helpers/qrng-stub.js';

// As this world's server is: a Bitcoin chain, a QRNG, the prediction venues; Base only, so not the Polygon funding the
// insider scan and the prediction whales read (test/e2e/prediction.test.ts checks those two against their schemas).
const registry = createRegistry([], new Set(['bitcoin', 'qrng', 'prediction']));
/** Every part present: what is unavailable there is only what has no engine (skills/catalog/planned.ts). */
const planned = createRegistry();
let w: WorldSibyl;
let bitcoin: TestBitcoin;
let qrng: QrngStub;

beforeAll(async () => {
  // The Bitcoin skills read an embedded chain by its Esplora API; quantum randomness a loopback QRNG.
  [bitcoin, qrng] = await Promise.all([startTestBitcoin('outputs-btc'), startQrngStub()]);
  w = await startSharedWorldSibyl({ QRNG_URL: qrng.url }, { bitcoin: bitcoin.source });
}, 120_000);
afterAll(async () => {
  await w?.close();
  await qrng?.close();
  await bitcoin?.close();
});

const exposedBtc = () => bitcoin.chain.labels.exposed.find((e) => e.why === 'reused-after-spend')!.address;

async function run(skill: Skill, body: Record<string, unknown>) {
  const input = skill.input.parse(body);
  // list_service_capabilities reads the tool list the MCP surface gives its context.
  const ctx = { ...w.sibyl.context, tools: toolDirectory(registry) };
  await skill.admit?.(input, ctx);
  const answer = await skill.handler(input, ctx);
  assertAnswer(skill.id, skill.output, answer);
  // The verdict sentence the report opens with reads real fields: no gap where one was misnamed.
  // (The writer reads no summary from an `available: false` answer.)
  if (skill.summarize && (answer as { available?: boolean }).available !== false) expect(skill.summarize(answer), `${skill.id} summary`).not.toMatch(/undefined|NaN|\[object Object\]/);
  return answer as Record<string, any>;
}

describe('every working skill answers its output schema', () => {
  it('on the world, once each', { timeout: 300_000 }, async () => {
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
    // Vaults of the world: a live USDC one, and a deprecated one with a depositor still in it.
    const usdcVault = w.labels.vaults.find((v) => !v.deprecated && v.asset.toLowerCase() === CHAINS.base.usdc.toLowerCase())!;
    const deadVault = w.labels.vaults.find((v) => v.deprecated)!;
    const bodies: Record<string, Record<string, unknown>> = {
      'whale-tracking': { chain: 'base', limit: 5, timeperiod: '30d' },
      'bitcoin-bridge-comparison': { limit: 10 },
      'bitcoin-mempool-intelligence': { limit: 3 },
      'bitcoin-onchain-analytics': { limit: 5 },
      'brc20-analytics': { limit: 5 },
      'runes-analytics': { limit: 5 },
      'bitcoin-staking-analysis': { limit: 5 },
      'pqc-wallet-scan': { address: exposedBtc() },
      'pqc-readiness-assessment': {},
      'pqc-migration-planner': { address: wallet },
      'quantum-portfolio-monitor': { addresses: [wallet, exposedBtc()] },
      'crqc-proximity-benchmark': {},
      'quantum-hardware-qrng': { bytes: 16 },
      'quantum-encryption-key': {},
      'quantum-signing-key': {},
      'quantum-wallet-generation': {},
      'bitcoin-cycle-position': {},
      'latest-pairs': list,
      'wallet-portfolio': { walletAddress: wallet, chain: 'base' },
      tokenchart: { ...token, forecast: true },
      'tokenchart-raw': token,
      ohlcv: token,
      'top-tokens': list,
      topvolume: list,
      'top-gainers': list,
      'market-movers': { chain: 'base', limit: 5, timeperiod: '30d', side: 'losers' },
      'trade-signals': { chain: 'base', limit: 5, timeframe: '1h' },
      'approval-security-scan': { address: wallet, chain: 'base' },
      'forgotten-assets-scan': { address: wallet },
      'vaults-list': { chain: 'base' },
      'yield-discover': { asset: 'USDC' },
      'fixed-yield-analysis': { chain: 'base', limit: 5 },
      // A depositor of the world's vaults holds USDC to deposit.
      'yield-deposit': { asset: 'USDC', amount: '100', wallet: deadVault.holdersLeft[0] },
      'yield-vault-deposit-plan': { vault: usdcVault.vault, amount: '100', wallet: deadVault.holdersLeft[0] },
      'yield-rebalance': { wallet: deadVault.holdersLeft[0], fromVault: deadVault.vault },
      'v4-hook-radar': { chainId: 8453, timeperiod: '30d' },
      'mempool-watch': { chain: 'base', windowSeconds: 30 },
      'claimable-airdrops': { address: wallet },
      'liquidation-monitor': { chain: 'base', maxHealthFactor: 1.2, limit: 5, timeperiod: '30d' },
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
      'forecast-inference-api': FORECAST_API_EXAMPLE_BODY,
      // The free tools (they read the snapshots built above).
      'price-forecast': {},
      'forecast-accuracy': {},
      'top-movers': {},
      'market-sentiment': {},
      'smart-money-flow': {},
      'whale-prints': {},
      'smart-money-inflow': {},
      'token-safety': { contract: CHAINS.base.wrappedNative, chain: 'base' },
      'launchpad-radar': {},
      'social-hype': {},
      'service-capabilities': {},
      // Prediction markets (the embedded venues over this world's plan).
      'prediction-market-discovery': { limit: 5 },
      'spread-analysis': { limit: 5 },
      'conviction-scanner': { limit: 5 },
      'longshot-fader': { limit: 5 },
      'cross-platform-arbitrage': { limit: 5 },
      'prediction-catalysts': {},
      'prediction-yields': {},
    };
    // The free tools read what the background jobs build: every job once, as the runner does.
    await w.sibyl.snapshots.runAll();
    const { forecast } = w.sibyl.context;
    await precomputeMajors(w.sibyl.context, forecast!.service, forecast!.ledger);
    const working = registry.published();
    expect(working.filter((s) => !bodies[s.id]).map((s) => s.id), 'working skills without a body here').toEqual([]);
    const failures: string[] = [];
    for (const skill of working) {
      // Each skill once (the two above already passed through run).
      if (skill.id === 'whale-tracking' || skill.id === 'latest-pairs') continue;
      const answer = await run(skill, bodies[skill.id]!).catch((err: Error) => void failures.push(`${skill.id}: ${err.message}`));
      // A free tool over a snapshot answers its data, not the cold envelope (which would check little).
      if (answer?.reason === 'snapshot_not_warm') failures.push(`${skill.id}: snapshot not warm`);
    }
    expect(failures).toEqual([]);
  });

  it('planned skills never answer: they refuse with domain_disabled (their schema is empty)', async () => {
    for (const skill of planned.unavailable().filter((s) => !s.free)) {
      const err = await skill.handler(skill.input.parse({}), w.sibyl.context).catch((e: unknown) => e);
      expect(err, skill.id).toBeInstanceOf(SibylError);
      expect((err as SibylError).code).toBe('domain_disabled');
    }
  });

  it('free tools whose feed is switched off answer no data, not an error (spec 2.4), in their envelope', async () => {
    const off = createRegistry([], new Set());
    const tools = off.unavailable('mcp').filter((s) => s.free && s.needs?.some((n) => n === 'perps' || n === 'records' || n === 'calls'));
    expect(tools.map((s) => s.toolName).sort()).toEqual(['get_analyst_accuracy', 'get_congress_trades', 'get_government_contracts', 'get_perp_whales']);
    const ctx = { ...w.sibyl.context, perps: undefined, records: undefined, calls: undefined };
    for (const skill of tools) {
      const answer = await skill.handler(skill.input.parse({}), ctx);
      assertAnswer(skill.id, skill.output, answer);
      expect(answer, skill.id).toMatchObject({ available: false, reason: 'domain_disabled' });
    }
  });
});
