/**
 * Prometheus metrics (prom-client), one registry per running service: HTTP requests and their
 * latency, 402 challenges, paid answers, settlements by outcome, refunds (payments given back), each skill's work time, and — read when scraped — indexer lag, settlement backlog and
 * snapshot age. Labels are bounded (routes, skill ids, outcomes): never a payer or a URL.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** What the scrape-time gauges read from the running service. */
export interface ServiceSample {
  readonly chains: readonly { name: string; headBlock: string | null; indexedBlock: string | null }[];
  readonly bitcoin?: { tipHeight: number | null; indexedHeight: number | null } | undefined;
  readonly settlements: { unrecorded: number; pending: number | null; oldestPendingSeconds: number | null; lost: number | null };
  readonly snapshots: readonly { id: string; ageSeconds: number | null }[];
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({ name: 'sibyl_http_requests_total', help: 'HTTP requests answered, by method, route and status', labelNames: ['method', 'route', 'status'], registers: [this.registry] });
  readonly requestSeconds = new Histogram({ name: 'sibyl_http_request_duration_seconds', help: 'Time to answer an HTTP request, by route', labelNames: ['route'], buckets: SECONDS, registers: [this.registry] });
  readonly challenges = new Counter({ name: 'sibyl_payment_challenges_total', help: '402 payment challenges answered, by route', labelNames: ['route'], registers: [this.registry] });
  readonly paymentsRefused = new Counter({ name: 'sibyl_payments_refused_total', help: 'Payments refused at verification (bad signature, replay, amount...), by method', labelNames: ['method'], registers: [this.registry] });
  readonly paidAnswers = new Counter({ name: 'sibyl_paid_answers_total', help: 'Answers sold, by skill and payment method', labelNames: ['skill', 'method'], registers: [this.registry] });
  readonly settlements = new Counter({ name: 'sibyl_settlements_total', help: 'Settlements of paid answers, by outcome (settled, pending, failed)', labelNames: ['outcome'], registers: [this.registry] });
  readonly refunds = new Counter({
    name: 'sibyl_refunds_total', labelNames: ['method', 'reason'], registers: [this.registry],
    help: 'Verified payments given back because the call produced nothing (an x402 authorization left unsettled, a credit debit refunded, a quota unit returned), by method and reason',
  });
  readonly skillSeconds = new Histogram({ name: 'sibyl_skill_duration_seconds', help: "A paid skill's work time, by skill and outcome (ok, error)", labelNames: ['skill', 'outcome'], buckets: SECONDS, registers: [this.registry] });

  constructor(sample: () => Promise<ServiceSample>) {
    collectDefaultMetrics({ register: this.registry, prefix: 'sibyl_' });
    // One sample per scrape, shared by every gauge below.
    let current: { at: number; sample: Promise<ServiceSample> } | undefined;
    const read = () => {
      if (!current || Date.now() - current.at > 1_000) current = { at: Date.now(), sample: sample() };
      return current.sample;
    };
    const registers = [this.registry];
    new Gauge({
      name: 'sibyl_indexer_lag_blocks', help: "Blocks between a chain's head and what the indexer has read (absent while either is unknown)", labelNames: ['chain'], registers,
      async collect() {
        this.reset();
        for (const c of (await read()).chains) {
          if (c.headBlock !== null && c.indexedBlock !== null) this.set({ chain: c.name }, Math.max(0, Number(c.headBlock) - Number(c.indexedBlock)));
        }
      },
    });
    new Gauge({
      name: 'sibyl_bitcoin_index_lag_blocks', help: "Blocks between the Bitcoin tip and the Bitcoin index", registers,
      async collect() {
        this.reset();
        const b = (await read()).bitcoin;
        if (b?.tipHeight != null && b.indexedHeight != null) this.set(Math.max(0, b.tipHeight - b.indexedHeight));
      },
    });
    new Gauge({
      name: 'sibyl_snapshot_age_seconds', help: "Age of each free tool's stored snapshot (absent before its first build)", labelNames: ['snapshot'], registers,
      async collect() {
        this.reset();
        for (const s of (await read()).snapshots) if (s.ageSeconds !== null) this.set({ snapshot: s.id }, s.ageSeconds);
      },
    });
    new Gauge({
      name: 'sibyl_settlements_pending', help: 'Settlements whose outcome is not known yet (resubmitted until they land or expire)', registers,
      async collect() {
        const { pending } = (await read()).settlements;
        if (pending !== null) this.set(pending);
      },
    });
    new Gauge({
      name: 'sibyl_settlements_lost', help: 'Settlements answered and once on chain that the chain lost after their authorization expired (kept a month)', registers,
      async collect() {
        const { lost } = (await read()).settlements;
        if (lost !== null) this.set(lost);
      },
    });
    new Gauge({
      name: 'sibyl_settlements_unrecorded', help: 'Settlement records the store has not taken yet (kept in the outbox)', registers,
      async collect() {
        this.set((await read()).settlements.unrecorded);
      },
    });
  }
}
