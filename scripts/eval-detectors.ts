/**
 * `npm run eval:detectors -- --seed N [--days D] [--chains base,ethereum] [--json]`: builds the
 * world for a seed, indexes it, runs the detectors over everything indexed, and prints their
 * precision and recall against the world's labels (which only this script reads).
 */
import { parseArgs } from 'node:util';
import { withIndexedWorld } from './indexed-world.js';
import type { EvmChainName } from '../chain/chains.js';
import { Market } from '../skills/intel/market.js';
import { detectSandwiches } from '../skills/intel/mev.js';
import { detectSnipers } from '../skills/intel/snipers.js';
import { isSmartMoney, walletRecords } from '../skills/intel/smart-money.js';
import { whaleActivity, whaleWallets } from '../skills/intel/flows.js';
import { poolLiquidity } from '../skills/intel/security/liquidity.js';
import { simulateTrade } from '../skills/intel/security/simulate.js';
import { HIGH_TAX_PCT } from '../skills/intel/security/scan.js';
import { origins, treasuryWallets } from '../skills/intel/security/deployer.js';
import { airdropAllocations } from '../skills/intel/airdrops.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: 'sibyl' },
    days: { type: 'string', default: '14' },
    chains: { type: 'string', default: 'base,ethereum,bsc,arbitrum,polygon,optimism' },
    json: { type: 'boolean', default: false },
    debug: { type: 'boolean', default: false },
  },
});
const days = Number(values.days);
const chains = values.chains!.split(',') as EvmChainName[];

interface Score { truePositives: number; predicted: number; actual: number }
const scores: Record<string, Score> = {
  snipers: { truePositives: 0, predicted: 0, actual: 0 },
  sandwiches: { truePositives: 0, predicted: 0, actual: 0 },
  smartMoney: { truePositives: 0, predicted: 0, actual: 0 },
  honeypots: { truePositives: 0, predicted: 0, actual: 0 },
  taxed: { truePositives: 0, predicted: 0, actual: 0 },
  rugs: { truePositives: 0, predicted: 0, actual: 0 },
  whales: { truePositives: 0, predicted: 0, actual: 0 },
  claimableAirdrops: { truePositives: 0, predicted: 0, actual: 0 },
};
const add = (name: string, predicted: Set<string>, actual: Set<string>) => {
  const s = scores[name]!;
  if (values.debug) {
    console.log(name, 'false positives', [...predicted].filter((p) => !actual.has(p)).slice(0, 4));
    console.log(name, 'missed', [...actual].filter((p) => !predicted.has(p)).slice(0, 4));
  }
  s.predicted += predicted.size;
  s.actual += actual.size;
  for (const p of predicted) if (actual.has(p)) s.truePositives++;
};

await withIndexedWorld(values.seed!, days, chains, async ({ chain, store, reader, labels }) => {
  const market = await Market.load(chain, reader);

  const sandwiches = await detectSandwiches(chain, market, await reader.swaps(0, market.head.block));
  if (values.debug) {
    const labelled = new Set(labels.sandwiches.map((s) => `${s.block}:${s.attacker.toLowerCase()}`));
    const role = (a: string) => Object.entries(labels.wallets).find(([, list]) => (list as string[]).some((w) => w.toLowerCase() === a))?.[0] ?? 'retail/other';
    for (const s of sandwiches.filter((x) => !labelled.has(`${x.block}:${x.attacker.toLowerCase()}`))) {
      console.log('FP', chain.name, s.block, 'attacker', role(s.attacker), 'victims', s.victims.map((v) => role(v.address.toLowerCase())), 'gross', s.grossProfit);
    }
  }
  add('sandwiches',
    new Set(sandwiches.map((s) => `${s.block}:${s.pool.toLowerCase()}:${s.attacker.toLowerCase()}`)),
    new Set(labels.sandwiches.map((s) => `${s.block}:${s.pool.toLowerCase()}:${s.attacker.toLowerCase()}`)));

  const predicted = new Set<string>();
  for (const token of market.tokens.keys()) {
    if (token === chain.spec.usdc.toLowerCase() || token === chain.spec.wrappedNative.toLowerCase()) continue;
    for (const s of (await detectSnipers(chain, market, token)).snipers) predicted.add(`${s.wallet}:${token}`);
  }
  add('snipers', predicted, new Set(labels.snipes.map((s) => `${s.sniper.toLowerCase()}:${s.token.toLowerCase()}`)));

  const records = await walletRecords(market, market.head.block);
  if (process.env.DEBUG_SMART) {
    const smart = new Set(labels.wallets.smartMoney.map((w) => w.toLowerCase()));
    for (const s of await reader.swaps(0, market.head.block)) if (smart.has(s.to.toLowerCase())) console.log('SWAP', s.block, s.to.slice(0, 8), s.pair.slice(0, 8), s.amount0In, s.amount1In, s.amount0Out, s.amount1Out);
  }
  if (values.debug) {
    const role = (a: string) => Object.entries(labels.wallets).find(([, list]) => (list as string[]).some((w) => w.toLowerCase() === a))?.[0] ?? 'retail/other';
    for (const r of [...records.values()].filter((x) => x.closedTrades > 0).sort((a, b) => b.realizedUsd - a.realizedUsd).slice(0, 14)) {
      console.log('smart?', chain.name, role(r.wallet), 'closed', r.closedTrades, 'winRate', r.winRate.toFixed(2), 'realized', Math.round(r.realizedUsd), isSmartMoney(r) ? 'SMART' : '');
    }
  }
  add('smartMoney', new Set([...records.values()].filter(isSmartMoney).map((r) => r.wallet)), new Set(labels.wallets.smartMoney.map((w) => w.toLowerCase())));

  // Token security over every priced token but the chain's numeraires.
  const honeypots = new Set<string>();
  const taxed = new Set<string>();
  const rugged = new Set<string>();
  const head = BigInt(market.head.block);
  const deployers = await origins(market);
  for (const token of market.tokens.keys()) {
    if (token === chain.spec.usdc.toLowerCase() || token === chain.spec.wrappedNative.toLowerCase()) continue;
    const sim = await simulateTrade(market, token, head);
    if (sim.available && sim.honeypot) honeypots.add(token);
    else if (sim.available && (sim.sellTaxPct ?? 0) >= HIGH_TAX_PCT) taxed.add(token);
    for (const pool of market.pools.filter((p) => p.token0 === token || p.token1 === token)) {
      const liq = await poolLiquidity(market, pool, token);
      if (liq.pulled && liq.provider === deployers.get(token)?.deployer) rugged.add(token);
    }
  }
  const kinds = (kind: string) => new Set(labels.tokens.filter((t) => t.kind === kind && t.pair).map((t) => t.token.toLowerCase()));
  add('honeypots', honeypots, kinds('honeypot'));
  if (values.debug) {
    for (const t of kinds('honeypot')) if (!honeypots.has(t)) console.log('honeypot missed', chain.name, t, JSON.stringify(await simulateTrade(market, t, head)).slice(0, 60), JSON.stringify(market.mainPool(t), (k, v) => typeof v === 'bigint' ? String(v) : v), JSON.stringify(market.pools.filter((p) => p.token0 === t || p.token1 === t).map((p) => [p.token0 === t ? market.tokens.get(p.token1)?.symbol : market.tokens.get(p.token0)?.symbol, String(p.r0), String(p.r1)])));
  }
  add('taxed', taxed, kinds('taxed'));
  add('rugs', rugged, new Set(labels.rugs.map((r) => r.token.toLowerCase())));

  const whaleEvents = await whaleActivity(market, 0);
  const counts = new Map<string, number>();
  for (const e of whaleEvents) counts.set(e.wallet, (counts.get(e.wallet) ?? 0) + 1);
  if (values.debug) {
    const role = (a: string) => Object.entries(labels.wallets).find(([, list]) => (list as string[]).some((w) => w.toLowerCase() === a))?.[0] ?? 'retail/other';
    const detail = new Map<string, { swaps: number; transfers: number; blocks: Set<number> }>();
    for (const e of whaleEvents) {
      const d = detail.get(e.wallet) ?? { swaps: 0, transfers: 0, blocks: new Set<number>() };
      d[e.kind === 'swap' ? 'swaps' : 'transfers']++;
      d.blocks.add(e.block);
      detail.set(e.wallet, d);
    }
    console.log('whale?', chain.name, [...detail].sort((a, b) => b[1].blocks.size - a[1].blocks.size).slice(0, 12).map(([w, d]) => `${role(w)}:${d.swaps}s/${d.transfers}t/${d.blocks.size}b`).join(' '));
  }
  add('whales', whaleWallets(whaleEvents, await treasuryWallets(market)), new Set(labels.wallets.whales.map((w) => w.toLowerCase())));
  // Claimable airdrops: every labelled eligible account and the labelled actors that are not eligible, each scanned as
  // the skill scans it at the index head; a claimable (distributor, account) is a prediction, and an allocation neither
  // claimed by then nor past its deadline a label.
  const at = await chain.client.getBlock({ blockNumber: BigInt(market.head.block) });
  const eligible = new Set(labels.airdrops.flatMap((a) => a.allocations.map((l) => l.account.toLowerCase())));
  const { whales, smartMoney, snipers, sandwichers, arbitrageurs, exchanges, liquidityProviders, holders } = labels.wallets;
  const notEligible = [...whales, ...smartMoney, ...snipers, ...sandwichers, ...arbitrageurs, ...exchanges, ...liquidityProviders, ...holders].map((a) => a.toLowerCase()).filter((a) => !eligible.has(a));
  const claimable = new Set<string>();
  for (const account of new Set([...eligible, ...notEligible])) {
    const scan = await airdropAllocations(chain, account as `0x${string}`, market, { number: at.number, timestamp: at.timestamp });
    for (const a of scan.allocations) if (a.status === 'claimable') claimable.add(`${a.distributor.toLowerCase()}:${account}`);
  }
  add('claimableAirdrops', claimable, new Set(labels.airdrops.filter((a) => a.deadline >= Number(at.timestamp)).flatMap((a) => a.allocations
    .filter((l) => !a.claims.some((c) => c.index === l.index && c.block <= Number(at.number)))
    .map((l) => `${a.distributor.toLowerCase()}:${l.account.toLowerCase()}`))));
  if (values.debug) console.log('airdrops', chain.name, 'eligible', eligible.size, 'not eligible scanned', notEligible.length);
});


const result = Object.fromEntries(Object.entries(scores).map(([name, s]) => [name, {
  precision: s.predicted ? s.truePositives / s.predicted : null,
  recall: s.actual ? s.truePositives / s.actual : null,
  predicted: s.predicted,
  actual: s.actual,
}]));
if (values.json) console.log(JSON.stringify(Object.fromEntries(Object.entries(result).map(([k, v]) => [k, { precision: v.precision, recall: v.recall }]))));
else {
  console.log(`seed ${values.seed}, ${days} days, chains ${chains.join(', ')}`);
  console.log('detector      precision  recall  predicted  labelled');
  for (const [name, r] of Object.entries(result)) {
    console.log(`${name.padEnd(13)} ${r.precision === null ? '   -' : r.precision.toFixed(3)}      ${r.recall === null ? '  -' : r.recall.toFixed(3)}   ${String(r.predicted).padStart(6)}    ${String(r.actual).padStart(6)}`);
  }
}
