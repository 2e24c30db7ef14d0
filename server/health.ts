/**
 * Readiness: the store in use and, for every chain, its JSON-RPC URL (a provider's reduced to
 * scheme, host and port), head block and indexed
 * block. A chain is ok only while its node answers the chain's id, and an embedded one only while
 * it still carries Sibyl's genesis marker: a node that took over the port is not reported ok.
 * An embedded chain also shows its node's supervision (status, restarts, last restart). Every
 * probe is bounded, so a hung node makes a chain not ok, never /healthz slow.
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

/** /healthz answers within this, whatever the chains do: a probe still running reports what was last seen. */
export const HEALTH_PROBE_BUDGET_MS = 500;

interface ChainProbe {
  readonly head: string | null;
  readonly problem: string | null;
  readonly at: number;
}

/** Each chain's last finished probe and the one running (one at a time, however many callers). */
const probes = new WeakMap<ConnectedChain, { last?: ChainProbe; running?: Promise<ChainProbe>; startedAt?: number }>();

function probe(c: ConnectedChain): { last?: ChainProbe; running: Promise<ChainProbe>; startedAt: number } {
  let entry = probes.get(c);
  if (!entry) probes.set(c, (entry = {}));
  if (!entry.running) {
    const state = entry;
    state.startedAt = Date.now();
    state.running = (async (): Promise<ChainProbe> => {
      try {
        const [head, problem] = await Promise.all([
          c.client.getBlockNumber({ cacheTime: 0 }),
          c.source === 'embedded' ? notSibylDevnet(c.client, c.spec.chainId) : wrongChain(c.client, c.spec.chainId),
        ]);
        return { head: head.toString(), problem, at: Date.now() };
      } catch (err) {
        return { head: null, problem: (err as Error).message.split('\n')[0]!, at: Date.now() };
      }
    })().then((result) => {
      state.last = result;
      state.running = undefined;
      return result;
    });
  }
  return entry as { last?: ChainProbe; running: Promise<ChainProbe>; startedAt: number };
}

export async function health(chains: ChainRuntime, store: Store, paywall: Paywall, facilitator: 'local' | 'remote', bitcoin?: BitcoinSource): Promise<z.input<typeof healthDocument>> {
  const TIMED_OUT = Symbol('timed out');
  const chainReports = await Promise.all(
    chains.list().map(async (c) => {
      const { last, running, startedAt } = probe(c);
      // A probe already past its budget (started by an earlier call) is not waited on again.
      const wait = Math.max(0, HEALTH_PROBE_BUDGET_MS - (Date.now() - startedAt));
      const [fresh, checkpoint] = await Promise.all([
        within(wait, running, TIMED_OUT),
        within(HEALTH_PROBE_BUDGET_MS, store.get(indexKeys(c.spec.chainId).checkpoint).catch(() => null), null),
      ]);
      const indexedBlock = checkpoint ? String((JSON.parse(checkpoint) as { block: number }).block) : null;
      const node = c.node?.();
      const base = { name: c.name, chainId: c.spec.chainId, source: c.source, rpcUrl: publicRpcUrl(c.source, c.rpcUrl), ...(node && { node }) };
      if (fresh === TIMED_OUT) {
        // The node did not answer in time (hung or blackholed): what it last said, marked not ok.
        const since = last ? `; last answer ${new Date(last.at).toISOString()}` : '';
        return { ...base, headBlock: last?.head ?? null, indexedBlock, ok: false, error: `no answer within ${HEALTH_PROBE_BUDGET_MS} ms${since}` };
      }
      if (fresh.head === null) return { ...base, headBlock: null, indexedBlock, ok: false, error: fresh.problem };
      return { ...base, headBlock: fresh.head, indexedBlock, ok: !fresh.problem, ...(fresh.problem && { error: fresh.problem }) };
    }),
  );
  const [storeOk, settlements, bitcoinReport] = await Promise.all([
    within(HEALTH_PROBE_BUDGET_MS, store.get('healthz').then(() => true, () => false), false),
    settlementsReport(paywall),
    bitcoin && bitcoinHealth(bitcoin),
  ]);
  return {
    status: storeOk && chainReports.every((c) => c.ok) && (bitcoinReport?.ok ?? true) ? 'ok' : 'degraded',
    store: { kind: store.kind, ok: storeOk, ...knownPersistence(store) },
    chains: chainReports,
    payments: { network: X402_NETWORK, asset: paywall.terms.asset, payTo: paywall.terms.payTo, facilitator },
    settlements,
    ...(bitcoinReport && { bitcoin: bitcoinReport }),
  };
}

/** The Bitcoin chain's Esplora: where it is (a real one's URL reduced like an RPC URL) and its tip, within the probe budget. */
async function bitcoinHealth(bitcoin: BitcoinSource) {
  const url = publicRpcUrl(bitcoin.kind === 'embedded' ? 'embedded' : 'rpc', bitcoin.esplora.baseUrl);
  const tip = await within(HEALTH_PROBE_BUDGET_MS, bitcoin.esplora.tipHeight().then((h) => ({ h }), (err: Error) => ({ error: err.message })), { error: `no answer within ${HEALTH_PROBE_BUDGET_MS} ms` });
  const indexedHeight = bitcoin.index?.indexedHeight() ?? null;
  return 'h' in tip
    ? { source: bitcoin.kind, esploraUrl: url, tipHeight: tip.h, indexedHeight, ok: true }
    : { source: bitcoin.kind, esploraUrl: url, tipHeight: null, indexedHeight, ok: false, error: tip.error };
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
