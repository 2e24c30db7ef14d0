/**
 * The embedded Bitcoin chain on its own thread: the worker builds the chain, serves its Esplora
 * API and keeps it live, so the service's event loop never carries the simulation (its build is
 * seconds of CPU). The main thread gets the URL, the entities and the labels; prices are computed
 * where they are read, from the same seed and origin.
 */
import { fileURLToPath } from 'node:url';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { startEmbeddedBitcoin } from './index.js';
import type { BitcoinEntity } from '../../chain/bitcoin.js';
import { ReferencePaths } from '../reference.js';
import type { BitcoinLabels } from './labels.js';

/** What the worker is started with (EmbeddedBitcoinOptions without the functions). */
export interface ThreadOptions {
  readonly seed: string;
  readonly days: number;
  readonly origin: number;
  readonly host?: string;
  readonly port?: number;
  readonly liveBlocks?: boolean;
  readonly liveStepMs?: number;
  readonly cacheDir?: string;
  readonly labelsPath?: string;
}

type FromWorker =
  | { readonly type: 'progress'; readonly msg: string }
  | { readonly type: 'ready'; readonly url: string; readonly entities: BitcoinEntity[]; readonly labels: BitcoinLabels }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'closed' };

export interface ThreadHandle {
  readonly url: string;
  readonly entities: BitcoinEntity[];
  readonly labels: BitcoinLabels;
  close(): Promise<void>;
}

/** Starts the chain on a worker thread; resolves once its API serves. */
export function startInWorker(o: ThreadOptions, onProgress?: (msg: string) => void): Promise<ThreadHandle> {
  const worker = new Worker(fileURLToPath(new URL('./thread-boot.cjs', import.meta.url)), {
    workerData: { ...o, entry: fileURLToPath(import.meta.url) },
    execArgv: ['--import', 'tsx'],
  });
  return new Promise((resolve, reject) => {
    let closed: (() => void) | undefined;
    worker.on('message', (m: FromWorker) => {
      if (m.type === 'progress') onProgress?.(m.msg);
      else if (m.type === 'failed') reject(new Error(m.message));
      else if (m.type === 'closed') closed?.();
      else {
        resolve({
          url: m.url,
          entities: m.entities,
          labels: m.labels,
          close: () => new Promise<void>((done) => {
            closed = () => void worker.terminate().then(() => done());
            worker.postMessage('close');
          }),
        });
      }
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`bitcoin worker exited (${code}) before it served`)));
  });
}

async function runWorker(o: ThreadOptions): Promise<void> {
  const port = parentPort!;
  try {
    const btc = await startEmbeddedBitcoin({ ...o, reference: new ReferencePaths(o.seed, o.origin), onProgress: (msg) => port.postMessage({ type: 'progress', msg }) });
    port.on('message', async (m) => {
      if (m !== 'close') return;
      await btc.close();
      port.postMessage({ type: 'closed' });
    });
    port.postMessage({ type: 'ready', url: btc.url, entities: btc.entities, labels: btc.labels });
  } catch (err) {
    port.postMessage({ type: 'failed', message: (err as Error).stack ?? String(err) });
  }
}

if (parentPort && (workerData as ThreadOptions | undefined)?.seed !== undefined) void runWorker(workerData as ThreadOptions);
