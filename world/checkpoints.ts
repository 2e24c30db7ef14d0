/**
 * Checkpoints of a running embedded world: each chain's whole state (anvil_dumpState, gzipped)
 * and its simulator's state, taken together between two world blocks, so a later start resumes
 * the chain where it was (its payments on chain) rather than where the world cache left it.
 *
 * They live beside the world cache they continue (`<cache>.live/`, one folder per checkpoint,
 * `<chain>-<ms>`), and name that cache (its origin and end) in their meta: a cache built again
 * under the same key makes them stale. A checkpoint is written into a temporary folder, every
 * file synced, meta last, then renamed in whole; the chain's older checkpoints go after it. A
 * reader takes the newest whole one that names the cache; the state file itself is checked when
 * it is loaded (a cut or corrupt gzip fails there) and the cache's state is loaded instead.
 */
import { mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EvmChainName } from '../chain/chains.js';
import type { WorldState } from './world.js';
import { isAlive, syncFile } from './whole-writes.js';

/** Bumped when a checkpoint's layout changes (older ones are then not read). */
const CHECKPOINT_LAYOUT = 1;

/** The cache a checkpoint continues. */
export interface CheckpointBase {
  readonly origin: number;
  readonly builtUntil: number;
}

export interface CheckpointMeta {
  readonly layout: number;
  readonly chain: EvmChainName;
  /** When it was taken (ms) and the chain's head then (payments may have added blocks while its state was dumped). */
  readonly takenAt: number;
  readonly head: number;
  readonly cache: CheckpointBase;
}

export interface Checkpoint {
  readonly meta: CheckpointMeta;
  /** The chain's state: the gzip `anvil --load-state` is given (decompressed) at spawn. */
  readonly stateFile: string;
  /** The simulator's state at the same block. */
  world(): Promise<WorldState>;
}

/** Where the checkpoints of the world cached in `cacheDir` go. */
export function checkpointRoot(cacheDir: string): string {
  return `${cacheDir}.live`;
}

const NAME = /^([a-z]+)-(\d+)$/;

/** The newest whole checkpoint of `chain` that continues `base`, or null. */
export async function latestCheckpoint(root: string, chain: EvmChainName, base: CheckpointBase): Promise<Checkpoint | null> {
  const names = (await readdir(root).catch(() => [] as string[]))
    .map((n) => NAME.exec(n))
    .filter((m): m is RegExpExecArray => !!m && m[1] === chain)
    .sort((a, b) => Number(b[2]) - Number(a[2]));
  for (const [name] of names) {
    const dir = join(root, name!);
    try {
      const meta = JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8')) as CheckpointMeta;
      if (meta.layout !== CHECKPOINT_LAYOUT || meta.chain !== chain || meta.cache?.origin !== base.origin || meta.cache?.builtUntil !== base.builtUntil) continue;
      const stateFile = join(dir, 'state.json.gz');
      await Promise.all([open(stateFile).then((f) => f.close()), open(join(dir, 'world.json')).then((f) => f.close())]);
      return { meta, stateFile, world: async () => JSON.parse(await readFile(join(dir, 'world.json'), 'utf8')) as WorldState };
    } catch {
      // half of one (no meta yet) or unreadable: the next older one
    }
  }
  return null;
}

/**
 * Writes a checkpoint of `chain`: `take` writes the chain's state into the path it is given and
 * answers the simulator's state at the same block (as JSON) and the head. Older checkpoints of
 * the chain, and folders writers that died left, go once it is in place.
 */
export async function writeCheckpoint(
  root: string, chain: EvmChainName, base: CheckpointBase,
  take: (statePath: string) => Promise<{ world: string; head: number }>,
): Promise<CheckpointMeta> {
  await mkdir(root, { recursive: true });
  const takenAt = Date.now();
  const tmp = join(root, `${chain}-${takenAt}.tmp-${process.pid}`);
  try {
    await mkdir(tmp);
    const { world, head } = await take(join(tmp, 'state.json.gz'));
    const meta: CheckpointMeta = { layout: CHECKPOINT_LAYOUT, chain, takenAt, head, cache: base };
    await writeFile(join(tmp, 'world.json'), world);
    await writeFile(join(tmp, 'meta.json'), JSON.stringify(meta));
    for (const f of ['state.json.gz', 'world.json', 'meta.json']) await syncFile(join(tmp, f));
    await syncFile(tmp);
    await rename(tmp, join(root, `${chain}-${takenAt}`));
    await syncFile(root);
    await prune(root, chain, takenAt);
    return meta;
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
}

/** The chain's checkpoints older than `keep`, and temporary folders of writers no longer running. */
async function prune(root: string, chain: EvmChainName, keep: number): Promise<void> {
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const whole = NAME.exec(name);
    const tmp = /^([a-z]+)-(\d+)\.tmp-(\d+)$/.exec(name);
    const stale = (whole && whole[1] === chain && Number(whole[2]) < keep) || (tmp && !isAlive(Number(tmp[3])));
    if (stale) await rm(join(root, name), { recursive: true, force: true });
  }
}

