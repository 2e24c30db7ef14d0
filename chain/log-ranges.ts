/**
 * getLogs over a block range as nodes allow it: asked at once, and where a node refuses the
 * range as too large (a result cap, a block-range limit, a body over the client's size limit),
 * in halves, recursively. The indexer's windows and the chain-read engines share it.
 */

/** Errors by which nodes and clients say a getLogs range returns too much. */
export function isRangeTooLarge(err: unknown): boolean {
  const text = `${(err as { shortMessage?: string }).shortMessage ?? ''} ${(err as Error).message ?? ''} ${(err as { details?: string }).details ?? ''}`;
  // A busy node that cannot answer a large range in time is answered with smaller ranges too.
  return /size limit|exceeded|too many|more than \d+ results|query returned more than|response size|block range|range is too large|limit exceeded|took too long|timed out/i.test(text);
}

/** `read(from, to)`, split in halves wherever the node refuses the range; a single block is never split. */
export async function readInHalves<T>(read: (from: number, to: number) => Promise<T[]>, from: number, to: number): Promise<T[]> {
  try {
    return await read(from, to);
  } catch (err) {
    if (from >= to || !isRangeTooLarge(err)) throw err;
    const mid = Math.floor((from + to) / 2);
    return [...(await readInHalves(read, from, mid)), ...(await readInHalves(read, mid + 1, to))];
  }
}
