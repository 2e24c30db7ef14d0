/** Where a Bitcoin answer's figures come from: the Esplora API read, the blocks, the method, the prices. */
import { z } from 'zod';
import type { BitcoinSource, IndexedBlock } from '../../chain/bitcoin.js';

export const bitcoinProvenanceShape = z.object({
  source: z.enum(['embedded', 'esplora']).describe('embedded: the world\'s Bitcoin chain; esplora: BITCOIN_ESPLORA_URL.'),
  chain: z.literal('bitcoin'),
  esplora: z.string().describe('The Esplora API every figure was read through.'),
  asOf: z.object({ height: z.number().int(), hash: z.string(), timestamp: z.string() }).describe('The block the figures stand at.'),
  blockRange: z.object({ from: z.number().int(), to: z.number().int() }).describe('Blocks the figures cover.'),
  index: z.string().nullable().describe('How the index holds the chain, when the answer reads it.'),
  priceSource: z.string().nullable().describe('BTC/USD used for USD figures.'),
  methodology: z.string(),
});
export type BitcoinProvenance = z.infer<typeof bitcoinProvenanceShape>;

export const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

/** Provenance of an answer read from the index, over the blocks it holds. */
export function indexProvenance(bitcoin: BitcoinSource, tip: IndexedBlock, methodology: string, from: number, prices = true): BitcoinProvenance {
  const index = bitcoin.index!;
  return {
    source: bitcoin.kind,
    chain: 'bitcoin',
    esplora: bitcoin.esplora.baseUrl,
    asOf: { height: tip.height, hash: tip.hash, timestamp: iso(tip.time) },
    blockRange: { from, to: tip.height },
    index: `in memory, rebuilt from the Esplora API at start: blocks ${index.fromHeight}-${tip.height}${index.utxoSetComplete ? ' (from genesis: the whole UTXO set)' : ' (not from genesis: the UTXO set is partial)'}`,
    priceSource: prices ? bitcoin.prices.source : null,
    methodology,
  };
}
