/** Where a figure came from: attached to every answer a skill gives. */
import type { ConnectedChain } from '../../chain/runtime.js';

export interface Provenance {
  readonly source: 'embedded' | 'rpc';
  readonly chain: string;
  readonly chainId: number;
  readonly asOf: { readonly block: string; readonly timestamp: string };
  readonly blockRange?: { readonly from: string; readonly to: string };
  readonly methodology: string;
}

export function provenance(
  chain: ConnectedChain,
  head: { number: bigint; timestamp: bigint },
  methodology: string,
  blockRange?: { from: bigint; to: bigint },
): Provenance {
  return {
    source: chain.source,
    chain: chain.name,
    chainId: chain.spec.chainId,
    asOf: { block: head.number.toString(), timestamp: new Date(Number(head.timestamp) * 1000).toISOString() },
    ...(blockRange && { blockRange: { from: blockRange.from.toString(), to: blockRange.to.toString() } }),
    methodology,
  };
}

/** Provenance of an answer read from the index: as of its checkpoint, over the blocks it read. */
export function indexProvenance(chain: ConnectedChain, checkpoint: { block: number; timestamp: number }, methodology: string, fromBlock: number): Provenance {
  return provenance(chain, { number: BigInt(checkpoint.block), timestamp: BigInt(checkpoint.timestamp) }, methodology, {
    from: BigInt(Math.min(fromBlock, checkpoint.block)),
    to: BigInt(checkpoint.block),
  });
}
