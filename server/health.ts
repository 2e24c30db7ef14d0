/**
 * Health, part by part: the store in use and, for every chain, its JSON-RPC URL (a provider's
 * reduced to scheme, host and port), head block, indexed block, how far the index lags and how
 * its indexer's passes go; the Bitcoin chain; the prediction venues; the embedded world's live blocks. Each part is
 * `up`, `slow` (answering late, or a probe or two failed: reported, still ready) or `down`
 * (server/probe.ts), judged by probes running in the background. Sibyl is ready while no part
 * it needs to sell anything is down: the store, and the payment chain when settlements are its
 * own; any other part down only marks the report degraded (the skills that need it answer 503
 * uncharged). A chain is down unless its node answers the chain's id, and an embedded one unless
 * it still carries Sibyl's genesis marker: a node that took over the port is not reported up.
 */
import type { z } from 'zod';
import type { healthDocument } from '../cards/documents.js';
import { PAYMENT_CHAIN } from '../chain/chains.js';
import { notSibylDevnet, wrongChain } from '../chain/genesis-marker.js';
import type { ChainRuntime, ChainSourceKind, ConnectedChain } from '../chain/runtime.js';
import { indexKeys } from '../indexer/rows.js';
import type { IndexerStatus } from '../indexer/indexer.js';
import type { Paywall } from '../payments/paywall.js';
import { X402_NETWORK } from '../payments/terms.js';
import type { Store } from '../store/store.js';
import { knownPersistence } from '../store/persistence.js';
import { within } from '../lib/time.js';
import type { BitcoinSource } from '../chain/bitcoin.js';
import { PERP_PROVIDER, type PerpVenue } from '../skills/perps/venue.js';
import type { RecordsFeeds } from '../skills/records/venue.js';
import type { CallsFeed } from '../skills/callers/venue.js';
import { PREDICTION_PROVIDERS, type PredictionProvider, type PredictionVenues, type VenueKind } from '../skills/prediction/venues.js';
import { DOWN_AFTER_FAILURES, LoopDelay, Probe, PROBE_BUDGET_MAX_MS, probeBudgetMs, type Observation, type PartState } from './probe.js';

/**
 * A chain URL as /healthz shows it: an embedded devnet's in full (local, no secrets; wallets
 * connect to it), any other reduced to scheme, host and port: paths, queries and userinfo of
 * provider URLs carry API keys.
 */
export function publicRpcUrl(source: ChainSourceKind, rpcUrl: string): string {
  if (source === 'embedded') return rpcUrl;
  try {
    const url = new URL(rpcUrl);
    return `${url.protocol}//${url.host}`;
  } catch {
    return '(redacted)';
  }
}

/** A health request waits at most this for fresh readings (the head block it shows); past it, the last known state. */
export const HEALTH_WAIT_MS = 500;

/** A configured prediction venue is someone else's service: probed this rarely (an embedded one as often as any part). */
const CONFIGURED_VENUE_PROBE_MS = 15_000;

/** A world whose chains have made no block for this many live-block intervals (at least 30 s) is stalled. */
const WORLD_STALL_INTERVALS = 10;

/** What a chain's node answered: its head, and what is wrong with it when it is not the chain (or not Sibyl's devnet). */
interface ChainAnswer {
  readonly head: bigint;
  readonly problem: string | null;
}

export type HealthReport = z.input<typeof healthDocument>;

export interface HealthParts {
  readonly chains: ChainRuntime;
  readonly store: Store;
  readonly paywall: Paywall;
  readonly facilitator: 'local' | 'remote';
  readonly bitcoin?: BitcoinSource | undefined;
  readonly prediction?: PredictionVenues | undefined;
  readonly perps?: PerpVenue | undefined;
  readonly records?: RecordsFeeds | undefined;
  readonly calls?: CallsFeed | undefined;
  /** Each chain's indexer, by chain name. */
  readonly indexers?: ReadonlyMap<string, { status(): IndexerStatus }>;
  /** The embedded world, when this process runs one: its live blocks' interval (0: none). */
  readonly world?: { readonly liveBlockMs: number };
}

export class HealthMonitor {
  private readonly loop = new LoopDelay();
  private readonly store: Probe<true>;
  private readonly chains = new Map<ConnectedChain, Probe<ChainAnswer>>();
  private readonly bitcoin?: Probe<number>;
  /** Off-chain venues, each under its domain's key in the report (`prediction`, `perps`). */
  private readonly venues: { domain: 'prediction' | 'perps' | 'records' | 'calls'; name: string; source: VenueKind; urls: string[]; probe: Probe<true> }[] = [];
  /** When each chain's head was last seen to move. */
  private readonly headMoved = new Map<string, { head: bigint; at: number }>();
  private readonly startedAt = Date.now();

  constructor(private readonly parts: HealthParts) {
    const budgetMs = () => this.budgetMs();
    const { store, bitcoin } = parts;
    this.store = new Probe({ check: () => store.get('healthz').then(() => true as const), budgetMs }).start();
    for (const c of parts.chains.list()) {
      this.chains.set(c, new Probe<ChainAnswer>({
        check: async () => {
          const [head, problem] = await Promise.all([
            c.client.getBlockNumber({ cacheTime: 0 }),
            c.source === 'embedded' ? notSibylDevnet(c.client, c.spec.chainId) : wrongChain(c.client, c.spec.chainId),
          ]);
          return { head, problem };
        },
        problemOf: (a) => a.problem,
        evidence: () => {
          const node = c.node?.();
          if (node && node.status !== 'running') return { error: `its node is ${node.status}${node.lastExit ? ` (${node.lastExit})` : ''}` };
          const refused = c.outcomes?.definiteFailure;
          return refused ? { error: `its last request failed: ${refused}` } : undefined;
        },
        budgetMs,
      }).start());
    }
    if (bitcoin) this.bitcoin = new Probe({ check: () => bitcoin.esplora.tipHeight(), budgetMs }).start();
    const prediction = parts.prediction;
    if (prediction) {
      for (const name of PREDICTION_PROVIDERS) {
        const origins = prediction[name].origins();
        // One listing call per venue (its first API: Gamma, Kalshi's trade API), a row at most.
        this.watch('prediction', name, prediction.kind[name], origins.map((o) => o.url), () => marketsAnswer(origins[0]!.url));
      }
    }
    const { perps, records, calls } = parts;
    // The perp venue answers its asset contexts (one `/info` call).
    if (perps) this.watch('perps', PERP_PROVIDER, perps.kind, [perps.urls.api, perps.urls.stats], () => perps.assets().then(() => true as const));
    // Each records feed answers cheaply: a HEAD of the House file, a search nothing matches.
    if (records) {
      for (const [name, feed] of [['stock-watcher', 'congress'], ['usaspending', 'usaspending']] as const) this.watch('records', name, records.kind[feed], [records.urls[feed]], () => records.reachable(feed));
    }
    // The calls feed answers its list of callers.
    if (calls) this.watch('calls', 'calls-feed', calls.kind, [calls.url], () => calls.callers().then(() => true as const));
  }

  /** One off-chain venue or feed, probed by `check`; a configured one (someone else's service) rarely. */
  private watch(domain: (typeof this.venues)[number]['domain'], name: string, source: VenueKind, urls: readonly string[], check: () => Promise<true>): void {
    this.venues.push({
      domain, name, source, urls: urls.map((u) => publicRpcUrl(source === 'embedded' ? 'embedded' : 'rpc', u)),
      probe: new Probe({ check, budgetMs: () => this.budgetMs(), ...(source === 'configured' && { intervalMs: CONFIGURED_VENUE_PROBE_MS }) }).start(),
    });
  }

  /** How long a probe starting now waits for its answer: longer while the event loop is held. */
  budgetMs(): number {
    return probeBudgetMs(this.loop.recentMs());
  }

  stop(): void {
    this.store.stop();
    for (const p of this.chains.values()) p.stop();
    this.bitcoin?.stop();
    for (const v of this.venues) v.probe.stop();
    this.loop.stop();
  }

  async report(): Promise<HealthReport> {
    const { store, paywall } = this.parts;
    const required = (name: string) => name === 'store' || (name === PAYMENT_CHAIN && this.parts.facilitator === 'local');
    const chainReports = await Promise.all(
      [...this.chains].map(async ([c, probe]) => {
        const [seen, checkpoint] = await Promise.all([
          probe.observe(HEALTH_WAIT_MS),
          within(HEALTH_WAIT_MS, store.get(indexKeys(c.spec.chainId).checkpoint).catch(() => null), null),
        ]);
        const indexed = checkpoint ? (JSON.parse(checkpoint) as { block: number }).block : null;
        const head = seen.value?.head ?? null;
        if (head !== null) this.sawHead(c.name, head);
        const node = c.node?.();
        const indexer = this.parts.indexers?.get(c.name)?.status();
        return {
          name: c.name, chainId: c.spec.chainId, source: c.source, rpcUrl: publicRpcUrl(c.source, c.rpcUrl), ...(node && { node }),
          headBlock: head === null ? null : head.toString(),
          indexedBlock: indexed === null ? null : String(indexed),
          indexLagBlocks: head === null || indexed === null ? null : Math.max(0, Number(head) - indexed),
          ...partFields(seen),
          required: required(c.name),
          ...(indexer && { indexer: indexerReport(indexer) }),
        };
      }),
    );
    const [storeSeen, settlements, bitcoinReport, venueReports] = await Promise.all([
      this.store.observe(HEALTH_WAIT_MS),
      settlementsReport(paywall),
      this.bitcoin && this.bitcoinReport(this.bitcoin),
      Promise.all(this.venues.map(async (v) => ({ domain: v.domain, name: v.name, source: v.source, urls: v.urls, ...partFields(await v.probe.observe(HEALTH_WAIT_MS)), required: false }))),
    ]);
    const storeReport = { kind: store.kind, ...partFields(storeSeen), required: true, ...knownPersistence(store) };
    const world = this.parts.world && this.worldReport(this.parts.world.liveBlockMs);
    const parts = [storeReport, ...chainReports, ...(bitcoinReport ? [bitcoinReport] : []), ...venueReports, ...chainReports.flatMap((c) => (c.indexer ? [c.indexer] : [])), ...(world ? [world] : [])];
    const delayMs = this.loop.recentMs();
    return {
      status: parts.every((p) => p.state === 'up') ? 'ok' : 'degraded',
      ready: [storeReport, ...chainReports].every((p) => !p.required || p.state !== 'down'),
      store: storeReport,
      chains: chainReports,
      payments: { network: X402_NETWORK, asset: paywall.terms.asset, payTo: paywall.terms.payTo, facilitator: this.parts.facilitator },
      settlements,
      ...(bitcoinReport && { bitcoin: bitcoinReport }),
      ...venuesByDomain(venueReports),
      ...(world && { world }),
      load: { eventLoopDelayMs: delayMs, probeBudgetMs: probeBudgetMs(delayMs) },
    };
  }

  private sawHead(chain: string, head: bigint): void {
    const last = this.headMoved.get(chain);
    if (!last || head > last.head) this.headMoved.set(chain, { head, at: Date.now() });
  }

  /** Live blocks: the embedded chains' heads move every interval; a world that stopped writing is slow (never down: what it wrote is still sold). */
  private worldReport(liveBlockMs: number) {
    const embedded = this.parts.chains.list().filter((c) => c.source === 'embedded').map((c) => this.headMoved.get(c.name)?.at ?? this.startedAt);
    const ageMs = embedded.length ? Date.now() - Math.min(...embedded) : 0;
    const stallMs = Math.max(30_000, WORLD_STALL_INTERVALS * liveBlockMs);
    const stalled = liveBlockMs > 0 && ageMs > stallMs;
    const state: PartState = stalled ? 'slow' : 'up';
    return {
      state, ok: true, required: false, liveBlockMs, lastBlockAgeSeconds: liveBlockMs > 0 ? Math.round(ageMs / 1000) : null,
      ...(stalled ? { note: `a chain has made no live block for ${Math.round(ageMs / 1000)} s` } : liveBlockMs === 0 ? { note: 'no live blocks (WORLD_LIVE_BLOCK_MS=0)' } : {}),
    };
  }

  /** The Bitcoin chain's Esplora: where it is (a real one's URL reduced like an RPC URL), its tip and how far the index lags. */
  private async bitcoinReport(probe: Probe<number>) {
    const bitcoin = this.parts.bitcoin!;
    const url = publicRpcUrl(bitcoin.kind === 'embedded' ? 'embedded' : 'rpc', bitcoin.esplora.baseUrl);
    const seen = await probe.observe(HEALTH_WAIT_MS);
    const tipHeight = seen.value ?? null;
    const indexedHeight = bitcoin.index?.indexedHeight() ?? null;
    return {
      source: bitcoin.kind, esploraUrl: url, tipHeight, indexedHeight,
      indexLagBlocks: tipHeight === null || indexedHeight === null ? null : Math.max(0, tipHeight - indexedHeight),
      ...partFields(seen),
      required: false,
    };
  }
}

/** A prediction venue answers its market listing (one row asked for). */
async function marketsAnswer(base: string): Promise<true> {
  const res = await fetch(`${base}/markets?limit=1`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(PROBE_BUDGET_MAX_MS) });
  await res.body?.cancel();
  if (!res.ok) throw new Error(`${base}/markets answered HTTP ${res.status}`);
  return true;
}

/** Each domain's venues under its own key (`prediction: [...]`, `perps: [...]`), the domain itself not repeated in each row. */
function venuesByDomain<V extends { domain: string }>(reports: readonly V[]): Record<string, Omit<V, 'domain'>[]> {
  const out: Record<string, Omit<V, 'domain'>[]> = {};
  for (const { domain, ...rest } of reports) (out[domain] ??= []).push(rest);
  return out;
}

/** The fields every part reports: its state, whether it answers (`ok`: not down), and its latency; why, when not up. */
function partFields(o: Observation<unknown>) {
  return { state: o.state, ok: o.state !== 'down', latencyMs: o.latencyMs, ...(o.detail && (o.state === 'down' ? { error: o.detail } : { note: o.detail })) };
}

/** A chain's indexer: up while its passes succeed, slow after a failed one, down after DOWN_AFTER_FAILURES in a row (its answers go stale, still sold). */
function indexerReport(s: IndexerStatus) {
  const state: PartState = s.failuresInRow >= DOWN_AFTER_FAILURES ? 'down' : s.failuresInRow > 0 ? 'slow' : 'up';
  return {
    state, ok: state !== 'down', required: false,
    lastPassAgeSeconds: s.lastPassAt === null ? null : Math.round((Date.now() - s.lastPassAt) / 1000),
    failuresInRow: s.failuresInRow,
    ...(s.lastError && state !== 'up' && (state === 'down' ? { error: s.lastError } : { note: s.lastError })),
  };
}

/**
 * Settlement records the store has not taken yet (kept in this process's outbox), pending
 * settlements (outcome unknown, resubmitted until they land or expire) with the oldest one's age,
 * and lost ones (answered, settled, then gone from the chain after their authorization expired).
 */
async function settlementsReport(paywall: Paywall) {
  const unrecorded = paywall.outbox.backlog;
  const [pending, lost] = await Promise.all([
    within(HEALTH_WAIT_MS, paywall.pendingSettlements().catch(() => null), null),
    within(HEALTH_WAIT_MS, paywall.lostSettlements().catch(() => null), null),
  ]);
  return { unrecorded, pending: pending?.length ?? null, oldestPendingSeconds: pending?.[0]?.ageSeconds ?? null, lost: lost?.length ?? null };
}
