/**
 * A Sibyl on its own base devnet with a short world history, for tests that check figures
 * against what the world did: the labels, a public client on the chain, and a paying poster.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPublicClient, http, type PublicClient } from 'viem';
import { inject } from 'vitest';
import { dumpStateTo, startDevnet, type Devnet, type DevnetChain } from '../../chain/devnet.js';
import { viemChain } from '../../chain/runtime.js';
import { decodeGenesis, encodeGenesis } from '../../world/cache.js';
import { startWorld, worldGenesisTimestamp } from '../../world/index.js';
import type { WorldLabels } from '../../world/labels.js';
import { fundedPayer, payingFetch, startTestSibyl, type TestServerOptions, type TestSibyl } from './sibyl.js';

export interface WorldSibyl {
  devnet: Devnet;
  sibyl: TestSibyl;
  labels: WorldLabels;
  rpcUrl: string;
  client: PublicClient;
  /** Pays for `path` with the official x402 client. */
  post(path: string, body: unknown): Promise<Response>;
  close(): Promise<void>;
}

export async function startWorldSibyl(seed: string, days = 2, env: Record<string, string> = {}): Promise<WorldSibyl> {
  const devnet = await startDevnet({ chains: ['base'], basePort: 0, genesisTimestamp: worldGenesisTimestamp(days), fifo: true });
  try {
    const world = await startWorld(devnet.chains, { seed, days, meanBlockSeconds: 1_200, liveBlockMs: 0, labelsPath: `/tmp/sibyl-${seed}-${process.pid}.json` });
    world.stop();
    return await serveWorld(devnet, world.worlds[0]!.labels, env);
  } catch (err) {
    await devnet.stop();
    throw err;
  }
}

/** The seed and length of the world the security, MCP, capability and output tests all read. */
export const SHARED_WORLD = { seed: 'sec-b', days: 3 } as const;

/**
 * A Sibyl on its own copy of the shared 3-day world. The world is written once per test run:
 * the first file to ask (in any worker) builds it and dumps the chain; every file then starts
 * its own anvil from that dump, so what one file's payments change no other file sees.
 */
export async function startSharedWorldSibyl(env: Record<string, string> = {}, options: Omit<TestServerOptions, 'rpcUrls' | 'env'> = {}): Promise<WorldSibyl> {
  const built = await sharedWorld();
  const devnet = await startDevnet({ chains: ['base'], basePort: 0, fifo: true, restore: { base: { stateFile: built.stateFile, genesis: built.genesis } } });
  try {
    // As the world leaves a chain it built: any account can send (tests act as the world's actors).
    // A node setting, so not in the dump.
    const set = await fetch(devnet.chains[0]!.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_autoImpersonateAccount', params: [true] }) });
    const answer = (await set.json()) as { error?: unknown };
    if (answer.error) throw new Error(`anvil_autoImpersonateAccount: ${JSON.stringify(answer.error)}`);
    return await serveWorld(devnet, built.labels, env, options);
  } catch (err) {
    await devnet.stop();
    throw err;
  }
}

interface BuiltWorld {
  stateFile: string;
  genesis: DevnetChain['genesis'];
  labels: WorldLabels;
}

let ownBuild: Promise<BuiltWorld> | undefined;

/**
 * The shared world's dump, built by whichever worker claims it first: `mkdir` of the world's
 * directory is the claim (atomic across processes); `world.json` appears, by rename, once the
 * dump is complete; `failed` carries the builder's error to the others.
 */
function sharedWorld(): Promise<BuiltWorld> {
  ownBuild ??= (async () => {
    const dir = join(inject('worldsDir'), `${SHARED_WORLD.seed}-${SHARED_WORLD.days}d`);
    const meta = join(dir, 'world.json');
    const claimed = await mkdir(dir).then(() => true, (err: NodeJS.ErrnoException) => {
      if (err.code === 'EEXIST') return false;
      throw err;
    });
    if (claimed) {
      try {
        await buildSharedWorld(dir, meta);
      } catch (err) {
        await writeFile(join(dir, 'failed'), String((err as Error).stack ?? err));
        throw err;
      }
    }
    for (const deadline = Date.now() + 240_000; !existsSync(meta); await sleep(100)) {
      if (existsSync(join(dir, 'failed'))) throw new Error(`the shared world failed to build:\n${await readFile(join(dir, 'failed'), 'utf8')}`);
      if (Date.now() > deadline) throw new Error('the shared world was not built within 240 s');
    }
    const saved = JSON.parse(await readFile(meta, 'utf8')) as Omit<BuiltWorld, 'genesis'> & { genesis: Parameters<typeof decodeGenesis>[0] };
    return { ...saved, genesis: decodeGenesis(saved.genesis) };
  })();
  return ownBuild;
}

async function buildSharedWorld(dir: string, meta: string): Promise<void> {
  const { seed, days } = SHARED_WORLD;
  const devnet = await startDevnet({ chains: ['base'], basePort: 0, genesisTimestamp: worldGenesisTimestamp(days), fifo: true });
  try {
    const world = await startWorld(devnet.chains, { seed, days, meanBlockSeconds: 1_200, liveBlockMs: 0, labelsPath: join(dir, 'labels.json') });
    world.stop();
    const stateFile = join(dir, 'state.json.gz');
    await dumpStateTo(devnet.chains[0]!.rpcUrl, stateFile);
    await writeFile(`${meta}.tmp`, JSON.stringify({ stateFile, genesis: encodeGenesis(devnet.chains[0]!.genesis), labels: world.worlds[0]!.labels }));
    await rename(`${meta}.tmp`, meta);
  } finally {
    await devnet.stop();
  }
}

async function serveWorld(devnet: Devnet, labels: WorldLabels, env: Record<string, string>, options: Omit<TestServerOptions, 'rpcUrls' | 'env'> = {}): Promise<WorldSibyl> {
  const rpcUrl = devnet.chains[0]!.rpcUrl;
  const sibyl = await startTestSibyl({ ...options, rpcUrls: { base: rpcUrl }, env });
  const client = createPublicClient({ chain: viemChain('base', rpcUrl), transport: http(rpcUrl), pollingInterval: 50 }) as PublicClient;
  const { key } = await fundedPayer('50', rpcUrl);
  const pay = payingFetch(key);
  return {
    devnet, sibyl, labels, rpcUrl, client,
    post: (path, body) => pay.pay(`${sibyl.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    async close() {
      await sibyl.close();
      await devnet.stop();
    },
  };
}
