/** getLogs over a block span in windows, newest window first, within a lookback bound. */
import type { AbiEvent, Address, GetLogsReturnType } from 'viem';
import type { ConnectedChain } from '../chain/runtime.js';

export interface LogBounds {
  /** Blocks per getLogs call. */
  readonly range: number;
  /** How far back from head a scan may reach. */
  readonly lookbackBlocks: number;
}

function lookbackFloor(head: bigint, bounds: LogBounds): bigint {
  const floor = head - BigInt(bounds.lookbackBlocks) + 1n;
  return floor > 0n ? floor : 0n;
}

/**
 * Scans windows from `head` down to the lookback floor, calling `accept` with each window's
 * logs; stops early when `accept` returns true. Returns the lowest block scanned.
 */
export async function scanLogsBackwards<E extends AbiEvent>(
  chain: ConnectedChain,
  query: { address?: Address | Address[]; event: E; args?: Record<string, unknown> },
  head: bigint,
  bounds: LogBounds,
  accept: (logs: GetLogsReturnType<E, [E], true>) => boolean,
): Promise<bigint> {
  const floor = lookbackFloor(head, bounds);
  let to = head;
  for (;;) {
    const from = to - BigInt(bounds.range) + 1n > floor ? to - BigInt(bounds.range) + 1n : floor;
    const logs = (await chain.client.getLogs({ ...query, fromBlock: from, toBlock: to, strict: true } as any)) as GetLogsReturnType<E, [E], true>;
    if (accept(logs) || from === floor) return from;
    to = from - 1n;
  }
}
