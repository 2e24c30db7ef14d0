/**
 * The embedded market on start-up: a cached world when one fits (chains reloaded from their
 * state dumps, simulators resumed and fast-forwarded to now, the index restored into the
 * store), else a world built afresh and cached once it is indexed. The cache is written whole
 * before Sibyl says it is ready, while nothing else moves the chains: a stop at any moment after
 * "ready" (even a kill) finds it complete, and live blocks start after it, so a cache's chain
 * state, simulator state and index describe the same head.
 */
import type { Devnet, DevnetChain } from '../chain/devnet.js';
import { dumpStateTo } from '../chain/devnet.js';
import { CHAINS, type EvmChainName } from '../chain/chains.js';
import { indexPrefix } from '../indexer/rows.js';
import type { Store } from '../store/store.js';
import { readWorldCache, worldCacheDir, writeWorldCache } from './cache.js';
import { buildWorld, resumeWorld, worldOrigin, type RunningWorld, type WorldConfig } from './index.js';
import { ReferencePaths } from './reference.js';

/** What became of the world cache at this start. */
export type WorldCacheOutcome = 'loaded' | 'written' | 'not written' | 'off';

export interface EmbeddedMarket {
  readonly reference: ReferencePaths;
  /** Set when the chains must be reloaded from a cache rather than deployed. */
  readonly restore: Partial<Record<EvmChainName, { stateFile: string; genesis: DevnetChain['genesis'] }>> | undefined;
  /** Writes (or resumes) the history on the started devnet. */
  start(devnet: Devnet, onProgress?: (message: string) => void): Promise<RunningWorld>;
  /** Before indexing: the store holds each embedded chain's index as it belongs to these chains. */
  prepareIndex(store: Store): Promise<void>;
  /**
   * After the embedded chains are indexed, before anything else reads or writes them: caches a
   * fresh build (durably; a failure is reported, not thrown: the world runs uncached), then
   * starts live blocks.
   */
  indexed(store: Store, onError: (err: unknown) => void, onProgress?: (message: string) => void): Promise<WorldCacheOutcome>;
}

/** Looks for a usable cache of this world and says how the devnet must start. */
export async function prepareEmbeddedMarket(config: WorldConfig, chains: readonly EvmChainName[]): Promise<EmbeddedMarket> {
  const dir = config.cacheDir ? await worldCacheDir(config.cacheDir, { seed: config.seed, days: config.days, meanBlockSeconds: config.meanBlockSeconds, chains }) : undefined;
  let cached = dir ? await readWorldCache(dir, chains) : null;
  // A cache older than its own history length would be mostly fast-forward: build afresh instead.
  if (cached && Date.now() / 1000 - cached.builtUntil > config.days * 86_400) cached = null;
  const reference = new ReferencePaths(config.seed, cached?.origin ?? worldOrigin(config.days));
  let running: RunningWorld | undefined;
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
      const world = running;
      if (!world) return 'off';
      try {
        if (cached) return 'loaded';
        if (!dir) return 'off';
        const started = Date.now();
        onProgress?.(`world ${config.seed}: caching ${devnetChains.length} chains in ${dir} before serving (a stop after "ready" keeps it)`);
        try {
          await writeWorldCache(dir, {
            origin: reference.origin,
            builtUntil: Math.floor(Date.now() / 1000),
            chains: await Promise.all(devnetChains.map(async (c, i) => ({
              name: c.name, genesis: c.genesis, world: world.worlds[i]!.toState(), index: await store.dump(indexPrefix(c.chainId)), writeState: (path: string) => dumpStateTo(c.rpcUrl, path),
            }))),
          }, (name, done) => onProgress?.(`world cache: ${name} written (${done} of ${devnetChains.length})`));
        } catch (err) {
          onProgress?.(`world not cached (the next start builds it again): ${(err as Error).message.split('\n')[0]}`);
          return 'not written';
        }
        onProgress?.(`world cached in ${dir} in ${Date.now() - started} ms (later starts load it)`);
        return 'written';
      } finally {
        world.startLive(onError);
      }
    },
  };
}
