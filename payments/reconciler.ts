/**
 * Runs the settlement ledger's reconciliation (deciding and resubmitting pending settlements)
 * on a timer, one pass at a time: a pass that resubmits waits for confirmations, and a slow
 * chain must not pile passes up.
 */
import type { SettlementLedger } from './settlements.js';

export function startReconciler(ledger: SettlementLedger, intervalMs: number, log: (msg: string, err?: unknown) => void): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    ledger.reconcile()
      .then(({ decided, stillPending }) => {
        if (decided || stillPending) log(`settlement reconciliation: ${decided} decided, ${stillPending} still pending`);
      })
      .catch((err) => log('settlement reconciliation failed', err))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
