/**
 * A loopback JSON-RPC proxy in front of a node that holds back every request body carrying one
 * of the given methods (a slow `eth_getLogs`, as public RPCs often are), and counts how many
 * such calls were in flight at once: the flaky proxy with none of its faults turned on.
 */
import { startFlakyRpc, type FlakyRpc } from './flaky-rpc.js';

export type SlowRpc = Pick<FlakyRpc, 'url' | 'maxInFlight' | 'calls' | 'close'>;

export function startSlowRpc(target: string, slowed: readonly string[], delayMs: number): Promise<SlowRpc> {
  return startFlakyRpc(target, slowed, delayMs);
}
