/** Bitcoin staking analysis from the staking index: staked amount, timelocks, unbonding, stakers, finality providers. */
import type { Stake, StakingIndex } from './indexer.js';

export const STAKING_METHODOLOGY = 'staking/v1: every confirmed block read through Esplora; staking transactions found by their Babylon-format OP_RETURN ("bbn1", version, staker key, finality-provider key, staking time), the stake being the taproot output that is not the staker\'s own key-path address; a stake ends when that output is spent, and the leaf revealed says how (timelock leaf: withdrawn; a leaf naming the finality provider: slashed; otherwise early unbonding, complete when the unbonding output is spent)';

/** Timelock bands in blocks (about 144 a day). */
export const TIMELOCK_BANDS = [
  { band: 'under 1 week', from: 0, to: 1_008 },
  { band: '1-4 weeks', from: 1_008, to: 4_320 },
  { band: '1-3 months', from: 4_320, to: 12_960 },
  { band: '3-6 months', from: 12_960, to: 25_920 },
  { band: '6-12 months', from: 25_920, to: 52_560 },
  { band: '12 months and more', from: 52_560, to: null },
] as const;

const btc = (sats: number) => (sats / 1e8).toFixed(8).replace(/\.?0+$/, '') || '0';
const sum = (list: readonly Stake[]) => list.reduce((s, x) => s + x.sats, 0);
const tally = (list: readonly Stake[]) => ({ count: list.length, sats: sum(list), btc: btc(sum(list)) });

function groupBy<K>(list: readonly Stake[], key: (s: Stake) => K): Map<K, Stake[]> {
  const m = new Map<K, Stake[]>();
  for (const s of list) m.set(key(s), [...(m.get(key(s)) ?? []), s]);
  return m;
}

export function stakingReport(index: StakingIndex, height: number, limit: number) {
  const all = index.stakes();
  const active = all.filter((s) => s.state === 'active');
  const staked = sum(active);
  const expired = active.filter((s) => s.height + s.stakingTime <= height);
  const byStaker = [...groupBy(active, (s) => s.stakerPk)].map(([pk, list]) => ({ stakerPk: pk, funders: [...new Set(list.map((s) => s.funder).filter((f): f is string => f !== null))], stakes: list.length, sats: sum(list), btc: btc(sum(list)), sharePct: staked ? Math.round((sum(list) / staked) * 10_000) / 100 : 0 }));
  byStaker.sort((a, b) => b.sats - a.sats || a.stakerPk.localeCompare(b.stakerPk));
  const byProvider = [...groupBy(active, (s) => s.finalityProviderPk)].map(([pk, list]) => ({ finalityProviderPk: pk, stakes: list.length, stakers: new Set(list.map((s) => s.stakerPk)).size, sats: sum(list), btc: btc(sum(list)), sharePct: staked ? Math.round((sum(list) / staked) * 10_000) / 100 : 0 }));
  byProvider.sort((a, b) => b.sats - a.sats || a.finalityProviderPk.localeCompare(b.finalityProviderPk));
  const recent = [...all].sort((a, b) => b.height - a.height || a.txid.localeCompare(b.txid));
  return {
    totalStaked: { sats: staked, btc: btc(staked) },
    activeStakes: active.length,
    stakesEver: all.length,
    timelocks: TIMELOCK_BANDS.map((b) => {
      const inBand = active.filter((s) => s.stakingTime >= b.from && (b.to === null || s.stakingTime < b.to));
      return { band: b.band, fromBlocks: b.from, toBlocks: b.to, ...tally(inBand) };
    }),
    timelockExpired: { ...tally(expired), note: 'Active stakes whose timelock has passed at the last block read: withdrawable now.' },
    unbonding: {
      inProgress: tally(all.filter((s) => s.state === 'unbonding')),
      completed: tally(all.filter((s) => s.state === 'unbonded')),
      withdrawnAtExpiry: tally(all.filter((s) => s.state === 'withdrawn')),
      slashed: tally(all.filter((s) => s.state === 'slashed')),
    },
    stakers: { count: byStaker.length, top: byStaker.slice(0, limit) },
    finalityProviders: { count: byProvider.length, top: byProvider.slice(0, limit) },
    recentStakes: recent.slice(0, limit).map((s) => ({ txid: s.txid, stakerPk: s.stakerPk, finalityProviderPk: s.finalityProviderPk, sats: s.sats, stakingTimeBlocks: s.stakingTime, height: s.height, time: new Date(s.time * 1000).toISOString(), state: s.state, endedAt: s.endedAt })),
  };
}
