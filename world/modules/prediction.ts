/**
 * Prediction-market traders as accounts of the Polygon chain: the venues themselves are off
 * chain (world/prediction/), but every account that trades on them is funded here with USDC at
 * the plan's `fundedAt`, one mint each, so an account's age and funding are on chain to read (an
 * insider's fresh account funded hours before its bet). Accounts funded before the history are
 * funded in the setup block, the chain's first moment. The module builds the very plan the
 * service's venues are built on (same seed, origin and reference prices), draws nothing of its
 * own, and labels the plan's truth as far as the world's clock has reached: events opened,
 * accounts funded (with their block), insiders who have traded, gaps planted.
 */
import type { Address } from 'viem';
import type { CrossListing, EventCategory } from '../prediction/events.js';
import { PredictionPlan, type PredictionPlanState } from '../prediction/plan.js';
import type { PredictionAccount, TraderRole } from '../prediction/trading.js';
import type { WorldHost, WorldModuleFactory } from './module.js';

export interface PredictionLabels {
  /**
   * Polygon only. Each event opened by the labels' time, with its truth (the chance drawn) and
   * outcome; each account funded, with the plan's `fundedAt` and the block and time of its mint;
   * each insider trade made; each cross-venue gap planted. Times are unix seconds.
   */
  prediction?: {
    events: { id: string; title: string; category: EventCategory; opensAt: number; closesAt: number; truth: number; outcome: boolean; crossListing: CrossListing | null }[];
    accounts: { address: Address; role: TraderRole; fundedAt: number; fundingBlock: number; fundingTime: number }[];
    insiders: { account: Address; eventId: string; time: number }[];
    gaps: { eventId: string; from: number; until: number }[];
  };
}

type Section = NonNullable<PredictionLabels['prediction']>;

export function emptyPredictionLabels(): Section {
  return { events: [], accounts: [], insiders: [], gaps: [] };
}

const DAY = 86_400;
/**
 * An account is funded with what it spends over the plan as it stands this far past its funding
 * (an insider's one bet; a long-lived trader's first month of trades), plus a margin: the plan
 * only ever grows, and a month covers the histories the world writes.
 */
const FUNDING_HORIZON_SECONDS = 30 * DAY;
const FUNDING_MARGIN = 0.02;

interface PredictionState {
  /** Accounts funded, in funding order. */
  funded: Address[];
}

export const predictionModule: WorldModuleFactory = (chain) => {
  if (chain !== 'polygon') return undefined;
  let state: PredictionState = { funded: [] };
  let plan: PredictionPlan | undefined;
  const funded = new Set<string>();
  /** The plan state the queue below was built from, its accounts still to fund (latest `fundedAt` first), and each account's spend. */
  let seen: PredictionPlanState | undefined;
  let due: PredictionAccount[] = [];
  let spend = new Map<string, number>();
  /** The next time something of the plan becomes labelled (an event opens, an insider trades, a gap opens). */
  let nextLabelAt = Number.NEGATIVE_INFINITY;

  const planOf = (host: WorldHost) => (plan ??= new PredictionPlan(host.seed, host.reference.origin, (asset, t) => host.reference.priceUsd(asset, t)));
  const section = (host: WorldHost) => (host.labels.prediction ??= emptyPredictionLabels());

  /** The plan far enough ahead of `t`; the funding queue and spends rebuilt when it grew. */
  const current = (host: WorldHost, t: number): PredictionPlanState => {
    const s = planOf(host).through(t + FUNDING_HORIZON_SECONDS);
    if (s !== seen) {
      seen = s;
      due = s.trading.accounts.filter((a) => !funded.has(a.address)).sort((a, b) => b.fundedAt - a.fundedAt || (a.address < b.address ? 1 : -1));
      spend = new Map();
      for (const tr of s.trading.trades) spend.set(tr.account, (spend.get(tr.account) ?? 0) + tr.price * tr.shares);
      nextLabelAt = Number.NEGATIVE_INFINITY;
    }
    return s;
  };

  /** One USDC mint to every account due by `t`, each labelled with the block it lands in. */
  const fund = (host: WorldHost, t: number) => {
    current(host, t);
    while (due.length && due.at(-1)!.fundedAt <= t) {
      const account = due.pop()!;
      const usd = Math.ceil((spend.get(account.address) ?? 0) * (1 + FUNDING_MARGIN));
      host.fundToken(account.address, host.usdc.address, BigInt(usd) * 10n ** BigInt(host.usdc.decimals));
      funded.add(account.address);
      state.funded.push(account.address);
      const time = host.time();
      host.onMined((block) => section(host).accounts.push({ address: account.address, role: account.role, fundedAt: account.fundedAt, fundingBlock: block, fundingTime: time }));
    }
  };

  /** The labels of what stands by `t`, rewritten only when something new has come due. */
  const label = (host: WorldHost, t: number) => {
    if (t < nextLabelAt) return;
    const s = current(host, t);
    const l = section(host);
    const upcoming = [
      ...s.events.map((e) => e.opensAt), ...s.trading.insiders.map((i) => i.time), ...s.trading.gaps.map((g) => g.from),
    ].filter((x) => x > t);
    // Past the plan's horizon nothing is known yet: look again once the plan has grown.
    nextLabelAt = Math.min(s.through - FUNDING_HORIZON_SECONDS, ...upcoming);
    l.events = s.events.filter((e) => e.opensAt <= t).sort((a, b) => a.opensAt - b.opensAt || a.id.localeCompare(b.id)).map((e) => ({
      id: e.id, title: e.title, category: e.category, opensAt: e.opensAt, closesAt: e.closesAt, truth: e.truth, outcome: e.outcome, crossListing: e.crossListing ?? null,
    }));
    l.insiders = s.trading.insiders.filter((i) => i.time <= t).map((i) => ({ ...i })).sort((a, b) => a.time - b.time || a.eventId.localeCompare(b.eventId));
    l.gaps = s.trading.gaps.filter((g) => g.from <= t).map((g) => ({ ...g })).sort((a, b) => a.from - b.from || a.eventId.localeCompare(b.eventId));
  };

  return {
    name: 'prediction',
    setup(host) {
      const t = host.time();
      section(host);
      fund(host, t);
      label(host, t);
    },
    step(host, t) {
      fund(host, t);
      label(host, t);
    },
    toState: () => state,
    restore(saved, host) {
      state = saved as PredictionState;
      for (const a of state.funded) funded.add(a);
      section(host);
    },
  };
};
