/**
 * The world is built once per seed and cached: each embedded chain's state dump (anvil keeps
 * blocks, receipts and logs in it), each simulator's state, what genesis deployed, and each
 * chain's index as the store held it. A later start loads all of it and fast-forwards to now,
 * so 30 days of history cost seconds instead of minutes.
 *
 * A cache belongs to one (seed, days, block spacing, chains) and one version of the code that
 * writes worlds and indexes: its key hashes the sources of world/, chain/ and
 * indexer/, so a change there builds a new world instead of reading an old one wrongly.
 */
import { createHash } from 'node:crypto';
import { access, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Address } from 'viem';
import type { EvmChainName } from '../chain/chains.js';
import type { GenesisDeployment, GenesisToken } from '../chain/devnet.js';
import type { StoreDump } from '../store/store.js';
import type { WorldState } from './world.js';
import { readDumpFile, writeDumpFile } from './dump-file.js';

/** Bumped when the cache's own layout changes. */
const CACHE_LAYOUT = 2; // 2: the index as JSON lines (dump-file.ts)
const SOURCE_DIRS = ['world', 'world/modules', 'chain', 'chain/artifacts', 'indexer'];

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
  for (const dir of SOURCE_DIRS) {
    const files = (await readdir(join(src, dir)).catch(() => [] as string[])).filter((f) => /\.(ts|js)$/.test(f)).sort();
    for (const f of files) hash.update(f).update(await readFile(join(src, dir, f)));
  }
  return join(root, `${identity.seed.replace(/[^\w.-]/g, '_').slice(0, 40)}-${hash.digest('hex').slice(0, 16)}`);
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

/** Writes the cache beside its final place and renames it in, so a reader never sees half of one. */
export async function writeWorldCache(dir: string, cache: NewCache): Promise<void> {
  const tmp = `${dir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  for (const c of cache.chains) {
    await c.writeState(join(tmp, `${c.name}.state.json.gz`));
    await writeFile(join(tmp, `${c.name}.world.json`), JSON.stringify(c.world));
    await writeDumpFile(join(tmp, `${c.name}.index.jsonl`), c.index);
    await writeFile(join(tmp, `${c.name}.genesis.json`), JSON.stringify(encodeGenesis(c.genesis)));
  }
  await writeFile(join(tmp, 'meta.json'), JSON.stringify({ origin: cache.origin, builtUntil: cache.builtUntil }));
  await rm(dir, { recursive: true, force: true });
  await mkdir(dirname(dir), { recursive: true });
  await rename(tmp, dir);
  await pruneSiblings(dir);
}

/**
 * Caches of the same seed built by other versions of the code are never read again, and a
 * half-written one of a process that died is garbage: both go (a cache is ~140 MB).
 */
async function pruneSiblings(dir: string): Promise<void> {
  const root = dirname(dir);
  const seedPart = basename(dir).replace(/-[0-9a-f]{16}$/, '');
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const sameSeed = name.replace(/-[0-9a-f]{16}(\.tmp-\d+)?$/, '') === seedPart;
    if (sameSeed && join(root, name) !== dir) await rm(join(root, name), { recursive: true, force: true });
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
