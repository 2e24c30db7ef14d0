/**
 * An embedded Bitcoin chain for a test, handed to a Sibyl by its Esplora API only (as a real
 * Esplora would be): the chain's labels stay with the test.
 */
import { EsploraClient } from '../../chain/esplora.js';
import type { BitcoinSource } from '../../chain/bitcoin.js';
import { startEmbeddedBitcoin, type EmbeddedBitcoin } from '../../world/bitcoin/index.js';
import { worldOrigin } from '../../world/index.js';
import { ReferencePaths } from '../../world/reference.js';

export interface TestBitcoin {
  readonly chain: EmbeddedBitcoin;
  /** What the Sibyl under test is given: the API, the chain's BTC prices and its published entities. */
  readonly source: BitcoinSource;
  close(): Promise<void>;
}

export async function startTestBitcoin(seed: string, days = 2): Promise<TestBitcoin> {
  const origin = worldOrigin(days);
  const chain = await startEmbeddedBitcoin({ seed, days, origin, reference: new ReferencePaths(seed, origin), port: 0, liveBlocks: false });
  const source: BitcoinSource = { kind: 'esplora', esplora: new EsploraClient(chain.url), prices: chain.prices, entities: chain.entities };
  return { chain, source, close: () => chain.close() };
}
