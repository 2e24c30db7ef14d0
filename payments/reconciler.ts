/**
 * Runs the settlement ledger's reconciliation (deciding and resubmitting pending settlements)
 * on a timer, one pass at a time: a pass that resubmits waits for confirmations, and a slow
 * chain must not pile passes up. At start, and whenever the payment chain went back (its node
 * restarted, its head went down, a block seen before changed), the settled records still
 * watched are checked against the chain first (SettlementLedger.recheckSettled): a node's
 * restart is noticed within a second, anything else at the next pass. Every pass also checks
 * the settlements recorded since the pass before (a chain that lost only newer blocks than it
 * looked at then gives no other sign).
 */
import type { SettlementLedger } from './settlements.js';

/** How often the node's restart count is looked at (in process, no request). */
const RESTART_WATCH_MS = 1_000;

export function startReconciler(ledger: SettlementLedger, intervalMs: number, log: (msg: string, err?: unknown) => void): { stop(): void } {
  // A recheck owed: the start's, or one a failed pass could not finish.
  let owed: string | null = 'a start';
  let running = false;
  let queued: 'recheck' | 'reconcile' | undefined;

  const recheck = async () => {
    const went = await ledger.chainWentBack();
    owed ??= went;
    if (!owed) {
      const { checked, reopened, lost } = await ledger.recheckRecent();
      if (reopened || lost) log(`recent settlements rechecked: ${checked} checked, ${reopened} no longer on chain and submitted again, ${lost} lost (expired)`);
      return;
    }
    const { checked, reopened, lost } = await ledger.recheckSettled(owed);
    if (reopened || lost || owed !== 'a start') log(`settlements rechecked after ${owed}: ${checked} checked, ${reopened} no longer on chain and submitted again, ${lost} lost (expired)`);
    owed = null;
  };
  const pass = (reconcile: boolean) => {
    if (running) return void (queued = reconcile || queued === 'reconcile' ? 'reconcile' : 'recheck');
    running = true;
    (async () => {
      await recheck();
      if (!reconcile) return;
      const { decided, stillPending } = await ledger.reconcile();
      if (decided || stillPending) log(`settlement reconciliation: ${decided} decided, ${stillPending} still pending`);
    })()
      .catch((err) => log('settlement reconciliation failed', err))
      .finally(() => {
        running = false;
        const next = queued;
        queued = undefined;
        if (next) pass(next === 'reconcile');
      });
  };

  const timer = setInterval(() => pass(true), intervalMs);
  timer.unref();
  let restarts = ledger.nodeRestarts();
  const watcher = setInterval(() => {
    const now = ledger.nodeRestarts();
    if (now === restarts) return;
    restarts = now;
    owed ??= 'the node was restarted';
    pass(false);
  }, RESTART_WATCH_MS);
  watcher.unref();
  setImmediate(() => pass(false));
  return {
    stop: () => {
      clearInterval(timer);
      clearInterval(watcher);
    },
  };
}
