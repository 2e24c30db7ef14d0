/**
 * The embedded market on start-up: a cached world when one fits (chains reloaded from their
 * state dumps, simulators resumed and fast-forwarded to now, the index restored into the
 * store), else a world built afresh and cached once it is indexed. The cache is written whole
 * before Sibyl says it is ready, while nothing else moves the chains: a stop at any moment after
 * "ready" (even a kill) finds it complete, and live blocks start after it, so a cache's chain
 * state, simulator state and index describe the same head.
 *
 * While it runs, each chain is checkpointed beside the cache (world/checkpoints.ts: its state
 * and its simulator's, between two world blocks): a later start loads a chain from its newest
 * checkpoint of this cache, so what happened after the cache was written (payments above all)
 * is still on chain, and from the cache when there is none or it does not load. The index is
 * the cache's either way; the indexer reads the blocks after it.
 */
import { join } from 'node:path';
import type { Devnet, DevnetChain, RestoredChain } from '../chain/devnet.js';
import { dumpStateTo } from '../chain/devnet.js';
import { CHAINS, PAYMENT_CHAIN, type EvmChainName } from '../chain/chains.js';
import { indexPrefix } from '../indexer/rows.js';
import type { Store } from '../store/store.js';
import { readWorldCache, worldCacheDir, writeWorldCache } from './cache.js';
import { checkpointRoot, latestCheckpoint, writeCheckpoint, type Checkpoint, type CheckpointBase } from './checkpoints.js';
import { buildWorld, resumeWorld, worldOrigin, type RunningWorld, type WorldConfig } from './index.js';
import { ReferencePaths } from './reference.js';
import type { WorldState } from './world.js';

/** What became of the world cache at this start. */
export type WorldCacheOutcome = 'loaded' | 'written' | 'not written' | 'off';

export interface EmbeddedMarket {
  readonly reference: ReferencePaths;
  /** Set when the chains must be reloaded from a cache (or a checkpoint of it) rather than deployed. */
  readonly restore: Partial<Record<EvmChainName, RestoredChain>> | undefined;
  /** What a chain's node restarted after a death loads when its own dump does not: its newest checkpoint, then the cache. */
  restartStates(name: EvmChainName): readonly string[];
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
  // The cache this run continues (the one loaded, or the one it writes), and the checkpoints of it.
  let base: CheckpointBase | undefined = cached ? { origin: cached.origin, builtUntil: cached.builtUntil } : undefined;
  const root = dir && checkpointRoot(dir);
  const checkpoints = new Map<EvmChainName, Checkpoint>();
  if (root && base) {
    for (const name of chains) {
      const checkpoint = await latestCheckpoint(root, name, base);
      if (checkpoint) checkpoints.set(name, checkpoint);
    }
  }
  // Each chain's newest checkpoint state, and its state in the cache (once there is one).
  const newest = new Map<EvmChainName, string>([...checkpoints].map(([name, c]) => [name, c.stateFile]));
  const cacheStates = new Map<EvmChainName, string>(cached?.chains.map((c) => [c.name, c.stateFile]) ?? []);
  const timers: NodeJS.Timeout[] = [];
  /** Checkpoints being written: a stop waits for them, so none lands (and prunes) after the run ended. */
  const writing = new Set<Promise<void>>();

  /** Checkpoints every chain on its own timer once live blocks run: the payment chain every `checkpointSeconds`, the others ten times as rarely. */
  const startCheckpoints = (onProgress?: (message: string) => void) => {
    const seconds = config.checkpointSeconds ?? 0;
    if (!root || !base || !running || seconds <= 0) return;
    const cache = base;
    running.worlds.forEach((world, i) => {
      const chain = devnetChains[i]!;
      let busy = false;
      let lastHead: string | undefined;
      const timer = setInterval(() => {
        if (busy) return;
        busy = true;
        const write = (async () => {
          const head = await blockHead(chain.rpcUrl);
          if (head.hash === lastHead) return; // nothing happened since the last one
          const meta = await writeCheckpoint(root, chain.name, cache, (statePath) => world.between(async () => {
            const at = await blockHead(chain.rpcUrl);
            await dumpStateTo(chain.rpcUrl, statePath);
            return { world: JSON.stringify(world.toState()), head: at.number };
          }));
          lastHead = head.hash;
          newest.set(chain.name, join(root, `${chain.name}-${meta.takenAt}`, 'state.json.gz'));
        })()
          .catch((err: unknown) => onProgress?.(`world checkpoint of ${chain.name} not written: ${(err as Error).message.split('\n')[0]}`))
          .finally(() => {
            busy = false;
            writing.delete(write);
          });
        writing.add(write);
      }, (chain.name === PAYMENT_CHAIN ? seconds : seconds * 10) * 1000);
      timer.unref();
      timers.push(timer);
    });
  };

  return {
    reference,
    restore: cached
      ? Object.fromEntries(cached.chains.map((c) => {
          const checkpoint = checkpoints.get(c.name);
          const entry: RestoredChain = { stateFile: checkpoint?.stateFile ?? c.stateFile, ...(checkpoint && { fallbackStateFile: c.stateFile }), genesis: c.genesis };
          return [c.name, entry];
        }))
      : undefined,
    restartStates: (name) => [newest.get(name), cacheStates.get(name)].filter((f): f is string => !!f),
    async start(devnet, onProgress) {
      devnetChains = devnet.chains;
      if (cached) {
        const saved = new Map<string, WorldState>();
        for (const c of cached.chains) {
          const checkpoint = checkpoints.get(c.name);
          const loadedFrom = devnet.chains.find((d) => d.name === c.name)?.restoredFrom;
          if (checkpoint && loadedFrom === checkpoint.stateFile) {
            saved.set(c.name, await checkpoint.world());
            onProgress?.(`${c.name}: resumed from its checkpoint of ${new Date(checkpoint.meta.takenAt).toISOString()} (block ${checkpoint.meta.head}), newer than the world cache`);
          } else {
            saved.set(c.name, (await c.details).world);
          }
        }
        running = await resumeWorld(devnet.chains, config, saved, reference, onProgress);
      } else {
        running = await buildWorld(devnet.chains, config, onProgress, reference);
      }
      const world = running;
      return { ...world, stop: async () => {
        for (const t of timers) clearInterval(t);
        world.stop();
        await Promise.all(writing);
      } };
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
        const builtUntil = Math.floor(Date.now() / 1000);
        onProgress?.(`world ${config.seed}: caching ${devnetChains.length} chains in ${dir} before serving (a stop after "ready" keeps it)`);
        try {
          await writeWorldCache(dir, {
            origin: reference.origin,
            builtUntil,
            chains: await Promise.all(devnetChains.map(async (c, i) => ({
              name: c.name, genesis: c.genesis, world: world.worlds[i]!.toState(), index: await store.dump(indexPrefix(c.chainId)), writeState: (path: string) => dumpStateTo(c.rpcUrl, path),
            }))),
          }, (name, done) => onProgress?.(`world cache: ${name} written (${done} of ${devnetChains.length})`));
        } catch (err) {
          onProgress?.(`world not cached (the next start builds it again): ${(err as Error).message.split('\n')[0]}`);
          return 'not written';
        }
        onProgress?.(`world cached in ${dir} in ${Date.now() - started} ms (later starts load it)`);
        base = { origin: reference.origin, builtUntil };
        for (const c of devnetChains) cacheStates.set(c.name, join(dir, `${c.name}.state.json.gz`));
        return 'written';
      } finally {
        world.startLive(onError);
        startCheckpoints(onProgress);
      }
    },
  };
}

/** The chain's latest block number and hash. */
async function blockHead(rpcUrl: string): Promise<{ number: number; hash: string }> {
  const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}' });
  const { result } = (await res.json()) as { result?: { number: string; hash: string } };
  if (!result) throw new Error(`no head from ${rpcUrl}`);
  return { number: Number(result.number), hash: result.hash };
}
