/**
 * The embedded market on start-up: a cached world when one fits (chains reloaded from their
 * state dumps, simulators resumed and fast-forwarded to now, the index restored into the
 * store), else a world built afresh and cached once it is indexed. Live blocks start only after
 * that, so a cache's chain state, simulator state and index describe the same head.
 */
import type { Devnet, DevnetChain } from '../chain/devnet.js';
import { dumpStateTo } from '../chain/devnet.js';
import { CHAINS, type EvmChainName } from '../chain/chains.js';
import { indexPrefix } from '../indexer/rows.js';
import type { Store } from '../store/store.js';
import { readWorldCache, worldCacheDir, writeWorldCache } from './cache.js';
import { buildWorld, resumeWorld, worldOrigin, type RunningWorld, type WorldConfig } from './index.js';
import { ReferencePaths } from './reference.js';

export interface EmbeddedMarket {
  readonly reference: ReferencePaths;
  /** Set when the chains must be reloaded from a cache rather than deployed. */
  readonly restore: Partial<Record<EvmChainName, { stateFile: string; genesis: DevnetChain['genesis'] }>> | undefined;
  /** Writes (or resumes) the history on the started devnet. */
  start(devnet: Devnet, onProgress?: (message: string) => void): Promise<RunningWorld>;
  /** Before indexing: the store holds each embedded chain's index as it belongs to these chains. */
  prepareIndex(store: Store): Promise<void>;
  /** After the embedded chains are indexed: caches a fresh build (in the background), then starts live blocks. */
  indexed(store: Store, onError: (err: unknown) => void, onProgress?: (message: string) => void): Promise<void>;
  /** Resolves once a cache being written is written (or failed). */
  settled(): Promise<void>;
}

/** Looks for a usable cache of this world and says how the devnet must start. */
export async function prepareEmbeddedMarket(config: WorldConfig, chains: readonly EvmChainName[]): Promise<EmbeddedMarket> {
  const dir = config.cacheDir ? await worldCacheDir(config.cacheDir, { seed: config.seed, days: config.days, meanBlockSeconds: config.meanBlockSeconds, chains }) : undefined;
  let cached = dir ? await readWorldCache(dir, chains) : null;
  // A cache older than its own history length would be mostly fast-forward: build afresh instead.
  if (cached && Date.now() / 1000 - cached.builtUntil > config.days * 86_400) cached = null;
  const reference = new ReferencePaths(config.seed, cached?.origin ?? worldOrigin(config.days));
  let running: RunningWorld | undefined;
  let caching: Promise<void> | undefined;
  let devnetChains: readonly DevnetChain[] = [];

  return {
    reference,
    restore: cached ? Object.fromEntries(cached.chains.map((c) => [c.name, { stateFile: c.stateFile, genesis: c.genesis }])) : undefined,
    async start(devnet, onProgress) {
      devnetChains = devnet.chains;
      running = cached
        ? await resumeWorld(devnet.chains, config, new Map(await Promise.all(cached.chains.map(async (c) => [c.name, (await c.details).world] as const))), reference, onProgress)
        : await buildWorld(devnet.chains, config, onProgress, reference);
      return running;
    },
    async prepareIndex(store) {
      // An embedded chain is new at every start: an index a former run left (in Redis) is not its index.
      for (const name of chains) await store.clear(indexPrefix(CHAINS[name].chainId));
      if (cached) for (const c of cached.chains) await store.restore((await c.details).index);
    },
    async indexed(store, onError, onProgress) {
      if (!dir || cached || !running) return running?.startLive(onError);
      const world = running;
      // Taken now, while the world is idle and the index stands at the chains' head; the state
      // dumps follow in the background (settlements may add blocks, which the index then reads),
      // and live blocks wait for them so the simulators' state matches the dumped chains.
      const started = Date.now();
      const snapshots = await Promise.all(devnetChains.map(async (c, i) => ({ c, world: world.worlds[i]!.toState(), index: await store.dump(indexPrefix(c.chainId)) })));
      caching = (async () => {
        await writeWorldCache(dir, {
          origin: reference.origin,
          builtUntil: Math.floor(Date.now() / 1000),
          chains: snapshots.map(({ c, world: state, index }) => ({ name: c.name, genesis: c.genesis, world: state, index, writeState: (path) => dumpStateTo(c.rpcUrl, path) })),
        });
        onProgress?.(`world cached in ${dir} in ${Date.now() - started} ms (later starts load it)`);
      })()
        .catch(onError)
        .finally(() => world.startLive(onError));
    },
    async settled() {
      await caching;
    },
  };
}
