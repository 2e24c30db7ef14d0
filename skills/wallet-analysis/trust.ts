/**
 * Wallet trust score (`wallet-trust/v1`), 0-100 from a neutral 50, built only from what the
 * index shows about the wallet; every factor is listed with its points and evidence so the
 * score can be checked, never taken on faith.
 */
import type { ConnectedChain } from '../../chain/runtime.js';
import { allExecutions } from '../data/executions.js';
import { round, type Market } from '../data/market.js';
import { detectSandwiches } from '../mev/engine.js';
import { origins } from '../data/origins.js';
import { poolLiquidity } from '../security/liquidity.js';
import { walletRecords } from '../smart-money/engine.js';

/** The score's factors, declared once: the code and the methodology both read them. */
export const TRUST_POINTS = {
  neutral: 50, perDay: 2, historyMax: 20, swapsPerPoint: 2, activityMax: 10, minClosedTrades: 4, recordWeight: 40,
  sandwicher: -40, perPulledToken: -50, deployerMin: -100, trusted: 70, neutralFloor: 40,
} as const;
const P = TRUST_POINTS;
export const TRUST_METHODOLOGY =
  `wallet-trust/v1 (neutral ${P.neutral}; +${P.perDay} per day since first indexed activity up to +${P.historyMax}; +1 per ${P.swapsPerPoint} swaps up to +${P.activityMax}; closed-trade record (>= ${P.minClosedTrades} trades) (win rate - 50%) x ${P.recordWeight}; ${P.sandwicher} for sandwiching others (sandwich/v2); ${P.perPulledToken} per token it deployed whose first provider pulled the liquidity (security/v1), at most ${P.deployerMin}; clamped to 0-100; trusted >= ${P.trusted}, risky < ${P.neutralFloor})`;

export interface TrustFactor {
  factor: string;
  points: number;
  evidence: string;
}

export async function walletTrust(chain: ConnectedChain, market: Market, wallet: string) {
  const w = wallet.toLowerCase();
  const factors: TrustFactor[] = [];
  const [executions, records, deployed, transfers] = await Promise.all([
    allExecutions(market),
    walletRecords(market, market.head.block + 1),
    origins(market),
    market.reader.transfers(0, market.head.block),
  ]);
  const mine = executions.filter((e) => e.wallet === w);
  const touched = transfers.filter((t) => t.from.toLowerCase() === w || t.to.toLowerCase() === w);
  const first = Math.min(...touched.map((t) => t.ts), ...mine.map((e) => e.ts));
  if (Number.isFinite(first)) {
    const days = (market.head.timestamp - first) / 86_400;
    factors.push({ factor: 'history', points: round(Math.min(P.historyMax, P.perDay * days), 2), evidence: `first indexed activity ${new Date(first * 1000).toISOString()} (${round(days, 1)} days)` });
    factors.push({ factor: 'activity', points: Math.min(P.activityMax, Math.floor(mine.length / P.swapsPerPoint)), evidence: `${mine.length} swaps, ${touched.length} token transfers indexed` });
  }
  const record = records.get(w);
  if (record && record.closedTrades >= P.minClosedTrades) {
    factors.push({ factor: 'trading record', points: round((record.winRate - 0.5) * P.recordWeight, 2), evidence: `${record.wins}/${record.closedTrades} closed trades won, realized $${round(record.realizedUsd, 2)}` });
  }
  const sandwiches = (await detectSandwiches(chain, market, await market.reader.swaps(0, market.head.block))).filter((s) => s.attacker.toLowerCase() === w);
  if (sandwiches.length) factors.push({ factor: 'sandwich attacker', points: P.sandwicher, evidence: `${sandwiches.length} sandwiches, first in block ${sandwiches[0]!.block}` });
  const ownTokens = [...deployed.values()].filter((o) => o.deployer.toLowerCase() === w);
  let rugs = 0;
  for (const origin of ownTokens) {
    const main = market.mainPool(origin.token);
    const pool = main?.pool ?? market.pools.find((p) => p.token0 === origin.token || p.token1 === origin.token);
    if (pool && (await poolLiquidity(market, pool, origin.token)).pulled) rugs++;
  }
  if (ownTokens.length) {
    factors.push({ factor: 'deployer', points: Math.max(P.deployerMin, P.perPulledToken * rugs), evidence: `deployed ${ownTokens.length} token${ownTokens.length === 1 ? '' : 's'}; liquidity pulled from ${rugs}` });
  }
  const known = factors.length > 0;
  const score = Math.max(0, Math.min(100, Math.round(P.neutral + factors.reduce((s, f) => s + f.points, 0))));
  return {
    ...(known ? { available: true, score, grade: score >= P.trusted ? ('trusted' as const) : score >= P.neutralFloor ? ('neutral' as const) : ('risky' as const) } : { available: false, reason: 'the index holds no activity of this wallet' }),
    factors,
  };
}
