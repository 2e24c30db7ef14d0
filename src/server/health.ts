/**
 * Readiness: the store in use and, for every chain, its JSON-RPC URL (a provider's reduced to
 * scheme, host and port), head block and indexed
 * block. A chain is ok only while its node answers the chain's id, and an embedded one only while
 * it still carries Sibyl's genesis marker: a node that took over the port is not reported ok.
 */
import { notSibylDevnet, wrongChain } from '../chain/genesis-marker.js';
import type { ChainRuntime, ChainSourceKind } from '../chain/runtime.js';
import { indexKeys } from '../indexer/rows.js';
import type { Paywall } from '../payments/paywall.js';
import { X402_NETWORK } from '../payments/terms.js';
import type { Store } from '../store/store.js';
import { knownPersistence } from '../store/persistence.js';

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

export async function health(chains: ChainRuntime, store: Store, paywall: Paywall, facilitator: 'local' | 'remote') {
  const chainReports = await Promise.all(
    chains.list().map(async (c) => {
      try {
        const [head, checkpoint, problem] = await Promise.all([
          c.client.getBlockNumber({ cacheTime: 0 }),
          store.get(indexKeys(c.spec.chainId).checkpoint),
          c.source === 'embedded' ? notSibylDevnet(c.client, c.spec.chainId) : wrongChain(c.client, c.spec.chainId),
        ]);
        const indexedBlock = checkpoint ? String((JSON.parse(checkpoint) as { block: number }).block) : null;
        return { name: c.name, chainId: c.spec.chainId, source: c.source, rpcUrl: publicRpcUrl(c.source, c.rpcUrl), headBlock: head.toString(), indexedBlock, ok: !problem, ...(problem && { error: problem }) };
      } catch (err) {
        return { name: c.name, chainId: c.spec.chainId, source: c.source, rpcUrl: publicRpcUrl(c.source, c.rpcUrl), headBlock: null, ok: false, error: (err as Error).message.split('\n')[0] };
      }
    }),
  );
  let storeOk = true;
  const [, settlements] = await Promise.all([
    store.get('healthz').catch(() => {
      storeOk = false;
    }),
    settlementsReport(paywall),
  ]);
  return {
    status: storeOk && chainReports.every((c) => c.ok) ? 'ok' : 'degraded',
    store: { kind: store.kind, ok: storeOk, ...knownPersistence(store) },
    chains: chainReports,
    payments: { network: X402_NETWORK, asset: paywall.terms.asset, payTo: paywall.terms.payTo, facilitator },
    settlements,
  };
}

/**
 * Settlement records the store has not taken yet (kept in this process's outbox) and pending
 * settlements (outcome unknown, resubmitted until they land or expire) with the oldest one's age.
 */
async function settlementsReport(paywall: Paywall) {
  const unrecorded = paywall.outbox.backlog;
  try {
    const pending = await paywall.pendingSettlements();
    return { unrecorded, pending: pending.length, oldestPendingSeconds: pending[0]?.ageSeconds ?? null };
  } catch {
    return { unrecorded, pending: null, oldestPendingSeconds: null };
  }
}
