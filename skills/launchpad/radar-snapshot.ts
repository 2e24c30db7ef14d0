/** The launchpad radar: bonding-curve launches of the indexed EVM launchpads, closest to graduating first. */
import { byRadarOrder, launches, RADAR_RANKING, radarPace } from './engine.js';
import { round } from '../data/market.js';
import { Screen } from '../data/screening.js';
import type { SkillContext } from '../core/context.js';
import { FREE_ROWS } from '../core/params.js';
import { indexSource, loadAllMarkets, periodStartBlock } from '../data/load.js';

/** The row cap a snapshot keeps per list (free tools cut to the caller's limit, at most this). */
const SNAPSHOT_ROWS = FREE_ROWS.max;

/** Bonding-curve launches of the EVM launchpads, closest to graduating at their current pace first (RADAR_RANKING). */
export async function launchpadRadar(ctx: SkillContext) {
  const { loaded, unavailable } = await loadAllMarkets(ctx);
  const rows = [];
  const screen = new Screen(ctx.store);
  for (const l of loaded) {
    const fromBlock = await periodStartBlock(l.market, l.checkpoint, '24h');
    const recent = await launches(l.market, fromBlock);
    await screen.check(l.market, recent.map((launch) => launch.token));
    for (const launch of recent) {
      rows.push({
        chainId: l.chain.spec.chainId, chain: l.chain.name, contractAddress: launch.token, symbol: launch.symbol, name: launch.name,
        priceUsd: launch.lastPriceUsd, volumeUsd: round(launch.period.volumeUsd, 2), raisedUsd: launch.raisedUsd, progressPct: launch.progressPct,
        protocol: 'bonding-curve launchpad', createTime: launch.launchedAt, migrateStatus: launch.graduated ? 'migrated' : 'on-curve',
        devAddress: launch.creator, traders: launch.lifetime.traders, source: indexSource(l),
        ...radarPace(launch),
        ...screen.row(l.chain.name, launch.token),
      });
    }
  }
  return { object: 'launchpad-radar', chain: 'all', window: '24h', screen: screen.summary('flagged'), ranking: RADAR_RANKING, rows: rows.sort(byRadarOrder).slice(0, SNAPSHOT_ROWS), errors: unavailable.map((u) => ({ leg: u.chain, reason: u.reason })) };
}
