/**
 * The world is built once per seed and cached: each embedded chain's state dump (anvil keeps
 * blocks, receipts and logs in it), each simulator's state, what genesis deployed, and each
 * chain's index as the store held it. A later start loads all of it and fast-forwards to now,
 * so 30 days of history cost seconds instead of minutes. A cache is renamed into place whole
 * once every file of it is on disk (fsync), so one that exists is complete and durable.
 *
 * A cache belongs to one (seed, days, block spacing, chains) and one version of the code that
 * writes worlds and indexes: its key hashes the sources of world/, chain/ and
 * indexer/, so a change there builds a new world instead of reading an old one wrongly.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { access, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Address } from 'viem';
import type { EvmChainName } from '../chain/chains.js';
import type { GenesisDeployment, GenesisToken } from '../chain/devnet.js';
import type { StoreDump } from '../store/store.js';
import type { WorldState } from './world.js';
import { isAlive, syncFile } from './whole-writes.js';
import { readDumpFile, writeDumpFile } from './dump-file.js';

/** Bumped when the cache's own layout changes. */
const CACHE_LAYOUT = 2; // 2: the index as JSON lines (dump-file.ts)
/** The code a cached world depends on, every folder below them included (the Bitcoin chain keeps its own cache). */
export const SOURCE_DIRS = ['world', 'chain', 'indexer'];
const NOT_HASHED = new Set(['world/bitcoin', 'indexer/bitcoin']);

export interface CacheIdentity {
  readonly seed: string;
  readonly days: number;
  readonly meanBlockSeconds: number;
  readonly chains: readonly EvmChainName[];
}

export interface CachedChain {
  readonly name: EvmChainName;
  readonly genesis: GenesisDeployment;
  /** The node's state (anvil's JSON, gzipped): blocks, receipts and logs. */
  readonly stateFile: string;
  /** The simulator's state and the chain's index (as of the state dump's head or before it), read while the nodes load. */
  readonly details: Promise<{ readonly world: WorldState; readonly index: StoreDump }>;
}

export interface CachedWorld {
  /** Where the reference paths start (the history's first second). */
  readonly origin: number;
  /** Wall-clock second the cached history ends at. */
  readonly builtUntil: number;
  readonly chains: readonly CachedChain[];
}

/** What a new cache is written from: each chain's state is dumped straight into its file. */
export interface NewCache extends Omit<CachedWorld, 'chains'> {
  readonly chains: readonly (Pick<CachedChain, 'name' | 'genesis'> & { readonly world: WorldState; readonly index: StoreDump; writeState(path: string): Promise<void> })[];
}

/** The directory of the cache for this identity and this version of the code. */
export async function worldCacheDir(root: string, identity: CacheIdentity): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify({ CACHE_LAYOUT, ...identity }));
  const src = join(dirname(fileURLToPath(import.meta.url)), '..');
  for (const file of await sourceFiles(src, SOURCE_DIRS)) hash.update(file).update(await readFile(join(src, file)));
  return join(root, `${identity.seed.replace(/[^\w.-]/g, '_').slice(0, 40)}-${hash.digest('hex').slice(0, 16)}`);
}

/** The .ts/.js files under the given folders, recursively and in a stable order, as paths relative to `src`. */
export async function sourceFiles(src: string, dirs: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const dir of dirs) {
    if (NOT_HASHED.has(dir)) continue;
    const entries = await readdir(join(src, dir), { withFileTypes: true }).catch(() => []);
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.isDirectory()) found.push(...(await sourceFiles(src, [`${dir}/${e.name}`])));
      else if (/\.(ts|js)$/.test(e.name)) found.push(`${dir}/${e.name}`);
    }
  }
  return found;
}

export async function readWorldCache(dir: string, chains: readonly EvmChainName[]): Promise<CachedWorld | null> {
  try {
    const meta = JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8')) as { origin: number; builtUntil: number };
    const loaded = await Promise.all(chains.map(async (name): Promise<CachedChain> => {
      const stateFile = join(dir, `${name}.state.json.gz`);
      const [, , , genesis] = await Promise.all([
        access(stateFile),
        access(join(dir, `${name}.world.json`)),
        access(join(dir, `${name}.index.jsonl`)),
        readFile(join(dir, `${name}.genesis.json`), 'utf8').then((t) => decodeGenesis(JSON.parse(t))),
      ]);
      // The large parts are parsed while anvil loads the chains (CPU of another process).
      const details = Promise.all([
        readFile(join(dir, `${name}.world.json`), 'utf8').then((t) => JSON.parse(t) as WorldState),
        readDumpFile(join(dir, `${name}.index.jsonl`)),
      ]).then(([world, index]) => ({ world, index }));
      details.catch(() => undefined); // awaited by the caller; a failure before then must not go unhandled
      return { name, genesis, stateFile, details };
    }));
    return { ...meta, chains: loaded };
  } catch {
    return null; // absent or unreadable: the world is built afresh
  }
}

/** Chains written at once: each state dump is anvil's CPU, each index file this process's. */
const WRITE_CONCURRENCY = Math.max(2, availableParallelism());

/**
 * Writes the cache beside its final place, makes every file durable, and renames it in, so a
 * reader never sees half of one and a cache once renamed in survives a crash or power cut. A
 * process that exits while writing (a signal, an error) takes its half-written copy with it; one
 * killed outright leaves it for the next writer to remove.
 */
export async function writeWorldCache(dir: string, cache: NewCache, onChainWritten: (name: EvmChainName, done: number) => void = () => {}): Promise<void> {
  const tmp = `${dir}.tmp-${process.pid}`;
  const discard = () => rmSync(tmp, { recursive: true, force: true });
  process.on('exit', discard);
  let written = 0;
  try {
    discard();
    await mkdir(tmp, { recursive: true });
    await eachAtMost(WRITE_CONCURRENCY, cache.chains, async (c) => {
      const files = [`${c.name}.state.json.gz`, `${c.name}.world.json`, `${c.name}.index.jsonl`, `${c.name}.genesis.json`].map((f) => join(tmp, f));
      await c.writeState(files[0]!);
      await writeFile(files[1]!, JSON.stringify(c.world));
      await writeDumpFile(files[2]!, c.index);
      await writeFile(files[3]!, JSON.stringify(encodeGenesis(c.genesis)));
      for (const f of files) await syncFile(f);
      onChainWritten(c.name, ++written);
    });
    await writeFile(join(tmp, 'meta.json'), JSON.stringify({ origin: cache.origin, builtUntil: cache.builtUntil }));
    await syncFile(join(tmp, 'meta.json'));
    await syncFile(tmp);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dirname(dir), { recursive: true });
    await rename(tmp, dir);
    await syncFile(dirname(dir));
    // Checkpoints of a cache this one replaces continue a world that is gone.
    await rm(`${dir}.live`, { recursive: true, force: true });
  } catch (err) {
    discard();
    throw err;
  } finally {
    process.off('exit', discard);
  }
  await pruneSiblings(dir);
}

/** fsync of a file or a directory (a directory's entries: a rename in it is then durable). */
/** Runs `work` on every item, at most `limit` at a time; the first failure fails the whole. */
async function eachAtMost<T>(limit: number, items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * Caches of the same seed built by other versions of the code are never read again (nor their
 * checkpoints, `.live`), and a half-written one of a process that died is garbage: all go (a
 * cache is ~140 MB). One that a live process is still writing is left to it.
 */
async function pruneSiblings(dir: string): Promise<void> {
  const root = dirname(dir);
  const seedPart = basename(dir).replace(/-[0-9a-f]{16}$/, '');
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const match = /-[0-9a-f]{16}(?:\.tmp-(\d+)|\.live)?$/.exec(name);
    if (!match || name.slice(0, match.index) !== seedPart || join(root, name) === dir || join(root, name) === `${dir}.live`) continue;
    const writer = match[1] ? Number(match[1]) : undefined;
    if (writer !== undefined && writer !== process.pid && isAlive(writer)) continue;
    await rm(join(root, name), { recursive: true, force: true });
  }
}

type EncodedToken = Omit<GenesisToken, 'supply'> & { supply?: string };

export function encodeGenesis(g: GenesisDeployment): { tokens: [string, EncodedToken][]; pools: GenesisDeployment['pools'] } {
  return { tokens: [...g.tokens].map(([k, { supply, ...t }]) => [k, { ...t, ...(supply !== undefined && { supply: supply.toString() }) }]), pools: g.pools };
}

export function decodeGenesis(raw: { tokens: [string, EncodedToken][]; pools: { pair: Address; a: string; b: string }[] }): GenesisDeployment {
  return {
    tokens: new Map(raw.tokens.map(([k, t]) => [k, { ...t, ...(t.supply !== undefined && { supply: BigInt(t.supply) }) } as GenesisToken])),
    pools: raw.pools,
  };
}
