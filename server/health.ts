/**
 * Readiness, part by part: the store in use and, for every chain, its JSON-RPC URL (a provider's
 * reduced to scheme, host and port), head block, indexed block and how far the index lags. Each
 * part is `up`, `slow` (answering late: reported with its latency, still ready) or `down` (an
 * error, a failure with no answer since, or silence for DOWN_AFTER_MS; server/probe.ts), and
 * Sibyl is ready while no part is down. A chain is down unless its node answers the chain's id,
 * and an embedded one unless it still carries Sibyl's genesis marker: a node that took over the
 * port is not reported up. An embedded chain also shows its node's supervision (status,
 * restarts, last restart). Every probe is bounded, so a hung node never makes health slow.
 */
import type { z } from 'zod';
import type { healthDocument } from '../cards/documents.js';
import { notSibylDevnet, wrongChain } from '../chain/genesis-marker.js';
import type { ChainRuntime, ChainSourceKind, ConnectedChain } from '../chain/runtime.js';
import { indexKeys } from '../indexer/rows.js';
import type { Paywall } from '../payments/paywall.js';
import { X402_NETWORK } from '../payments/terms.js';
import type { Store } from '../store/store.js';
import { knownPersistence } from '../store/persistence.js';
import { within } from '../lib/time.js';
import type { BitcoinSource } from '../chain/bitcoin.js';
import { Probe, type Observation, type PartState } from './probe.js';

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

/** A health request answers within this, whatever the parts do: a probe still running reports what was last seen. */
export const HEALTH_PROBE_BUDGET_MS = 500;

/** What a chain's node answered: its head, and what is wrong with it when it is not the chain (or not Sibyl's devnet). */
interface ChainAnswer {
  readonly head: bigint;
  readonly problem: string | null;
}

const chainProbes = new WeakMap<ConnectedChain, Probe<ChainAnswer>>();
const storeProbes = new WeakMap<Store, Probe<true>>();
const bitcoinProbes = new WeakMap<BitcoinSource, Probe<number>>();

function probeOf<K extends object, T>(probes: WeakMap<K, Probe<T>>, key: K, make: () => Probe<T>): Probe<T> {
  let probe = probes.get(key);
  if (!probe) probes.set(key, (probe = make()));
  return probe;
}

function chainProbe(c: ConnectedChain): Probe<ChainAnswer> {
  return probeOf(chainProbes, c, () => new Probe(async () => {
    const [head, problem] = await Promise.all([
      c.client.getBlockNumber({ cacheTime: 0 }),
      c.source === 'embedded' ? notSibylDevnet(c.client, c.spec.chainId) : wrongChain(c.client, c.spec.chainId),
    ]);
    return { head, problem };
  }, () => c.outcomes && { failing: c.outcomes.failing, lastFailure: c.outcomes.lastFailure, silentForMs: c.outcomes.silentForMs() }));
}

/** The fields every part reports: its state, whether it answers (`ok`: not down), and its latency; why, when not up. */
function partFields(o: Observation<unknown>, problem?: string | null) {
  const state: PartState = problem ? 'down' : o.state;
  const why = problem ?? o.detail;
  return { state, ok: state !== 'down', latencyMs: o.latencyMs, ...(why && (state === 'down' ? { error: why } : { note: why })) };
}

export async function health(chains: ChainRuntime, store: Store, paywall: Paywall, facilitator: 'local' | 'remote', bitcoin?: BitcoinSource): Promise<z.input<typeof healthDocument>> {
  const chainReports = await Promise.all(
    chains.list().map(async (c) => {
      const [seen, checkpoint] = await Promise.all([
        chainProbe(c).observe(HEALTH_PROBE_BUDGET_MS),
        within(HEALTH_PROBE_BUDGET_MS, store.get(indexKeys(c.spec.chainId).checkpoint).catch(() => null), null),
      ]);
      const indexed = checkpoint ? (JSON.parse(checkpoint) as { block: number }).block : null;
      const head = seen.value?.head ?? null;
      const node = c.node?.();
      return {
        name: c.name, chainId: c.spec.chainId, source: c.source, rpcUrl: publicRpcUrl(c.source, c.rpcUrl), ...(node && { node }),
        headBlock: head === null ? null : head.toString(),
        indexedBlock: indexed === null ? null : String(indexed),
        indexLagBlocks: head === null || indexed === null ? null : Math.max(0, Number(head) - indexed),
        ...partFields(seen, seen.value?.problem),
      };
    }),
  );
  const [storeSeen, settlements, bitcoinReport] = await Promise.all([
    probeOf(storeProbes, store, () => new Probe(() => store.get('healthz').then(() => true as const))).observe(HEALTH_PROBE_BUDGET_MS),
    settlementsReport(paywall),
    bitcoin && bitcoinHealth(bitcoin),
  ]);
  const storeReport = { kind: store.kind, ...partFields(storeSeen), ...knownPersistence(store) };
  const parts = [storeReport, ...chainReports, ...(bitcoinReport ? [bitcoinReport] : [])];
  return {
    status: parts.every((p) => p.state === 'up') ? 'ok' : 'degraded',
    ready: parts.every((p) => p.state !== 'down'),
    store: storeReport,
    chains: chainReports,
    payments: { network: X402_NETWORK, asset: paywall.terms.asset, payTo: paywall.terms.payTo, facilitator },
    settlements,
    ...(bitcoinReport && { bitcoin: bitcoinReport }),
  };
}

/** The Bitcoin chain's Esplora: where it is (a real one's URL reduced like an RPC URL), its tip and how far the index lags. */
async function bitcoinHealth(bitcoin: BitcoinSource) {
  const url = publicRpcUrl(bitcoin.kind === 'embedded' ? 'embedded' : 'rpc', bitcoin.esplora.baseUrl);
  const seen = await probeOf(bitcoinProbes, bitcoin, () => new Probe(() => bitcoin.esplora.tipHeight())).observe(HEALTH_PROBE_BUDGET_MS);
  const tipHeight = seen.value ?? null;
  const indexedHeight = bitcoin.index?.indexedHeight() ?? null;
  return {
    source: bitcoin.kind, esploraUrl: url, tipHeight, indexedHeight,
    indexLagBlocks: tipHeight === null || indexedHeight === null ? null : Math.max(0, tipHeight - indexedHeight),
    ...partFields(seen),
  };
}

/**
 * Settlement records the store has not taken yet (kept in this process's outbox) and pending
 * settlements (outcome unknown, resubmitted until they land or expire) with the oldest one's age.
 */
async function settlementsReport(paywall: Paywall) {
  const unrecorded = paywall.outbox.backlog;
  const pending = await within(HEALTH_PROBE_BUDGET_MS, paywall.pendingSettlements().catch(() => null), null);
  return { unrecorded, pending: pending?.length ?? null, oldestPendingSeconds: pending?.[0]?.ageSeconds ?? null };
}
