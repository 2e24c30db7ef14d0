/**
 * Runs an anvil node (from the `@foundry-rs/anvil` npm package, whose platform package ships
 * the binary: nothing is downloaded) as a child process bound to 127.0.0.1.
 *
 * A node is handed out only when it is the child spawned here: the port was free before the
 * spawn, the child is alive, it wrote its `--config-out` file (anvil does so only after its own
 * listener bound, so a node that held the port first cannot pass for it) and it answers the
 * expected chain id.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

export interface AnvilOptions {
  chainId: number;
  /** 0 picks a free port. */
  port: number;
  accounts?: number;
  balanceEth?: number;
  /** Unix seconds of the genesis block (a world backfilling history starts in the past). */
  genesisTimestamp?: number;
  /** Transaction order within a block: anvil's default is by fee. */
  order?: 'fifo' | 'fees';
  /** A state file (anvil's JSON state: blocks, receipts and logs included) to start from. */
  loadStatePath?: string;
}

/** The port is held by a process this one did not start (often another node on 8545). */
export class PortTakenError extends Error {
  constructor(
    readonly port: number,
    /** The chain that wanted it, when known. */
    readonly chain?: string,
  ) {
    super(`port ${port}${chain ? ` (${chain})` : ''} on 127.0.0.1 is in use by a process Sibyl did not start`);
  }
}

export interface AnvilNode {
  readonly rpcUrl: string;
  readonly port: number;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

export function anvilBinary(): string {
  const require = createRequire(import.meta.url);
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  try {
    return join(dirname(require.resolve(`${pkg}/package.json`)), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
  } catch {
    throw new Error(`embedded chain unavailable: the package ${pkg} is not installed for this platform`);
  }
}

/** Kill every child on exit, so the service never leaves a node behind. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
}

/** Starts a node on `options.port` (PortTakenError when something holds it) or, with 0, on a free port. */
export async function startAnvil(options: AnvilOptions): Promise<AnvilNode> {
  installExitHook();
  if (options.port !== 0) {
    if (!(await portIsFree(options.port))) throw new PortTakenError(options.port);
    return spawnAnvil(options, options.port);
  }
  // A port picked here may be taken by the time anvil binds it: try again on another.
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnAnvil(options, await freePort());
    } catch (err) {
      if (!(err instanceof PortTakenError) || attempt >= 3) throw err;
    }
  }
}

async function spawnAnvil(options: AnvilOptions, port: number): Promise<AnvilNode> {
  // Written by anvil only once its own listener is bound: proof that the node answering is this child.
  const boundProof = join(tmpdir(), `sibyl-anvil-${process.pid}-${randomUUID()}.json`);
  const args = [
    '--host', '127.0.0.1',
    '--port', String(port),
    '--chain-id', String(options.chainId),
    '--mnemonic', DEV_MNEMONIC,
    '--accounts', String(options.accounts ?? 10),
    '--balance', String(options.balanceEth ?? 10_000),
    '--quiet', // its per-request log would cost the service a pipe read per call
    '--config-out', boundProof,
    ...(options.genesisTimestamp !== undefined ? ['--timestamp', String(options.genesisTimestamp)] : []),
    ...(options.order ? ['--order', options.order] : []),
    ...(options.loadStatePath ? ['--load-state', options.loadStatePath] : []),
  ];
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  live.add(child);
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2_000)));
  // 'close' comes after the stderr pipe is drained, so the reason is complete.
  const exited = new Promise<never>((_, reject) => {
    child.once('error', reject);
    child.once('close', (code) => reject(/address already in use/i.test(stderr) ? new PortTakenError(port) : new Error(`anvil exited with code ${code}: ${stderr.trim()}`)));
  });
  const rpcUrl = `http://127.0.0.1:${port}`;
  try {
    // Loading a month of a busy world's state takes anvil seconds of CPU before it binds.
    await Promise.race([waitUntilServing(rpcUrl, boundProof, options.chainId, options.loadStatePath ? 120_000 : 15_000), exited]);
  } catch (err) {
    child.kill('SIGKILL');
    live.delete(child);
    throw err;
  } finally {
    await rm(boundProof, { force: true });
  }
  exited.catch(() => {});
  child.once('exit', () => live.delete(child));

  return {
    rpcUrl,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
      }),
  };
}

/** A port free on 127.0.0.1 at the time of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** True when nothing listens on 127.0.0.1:`port` (a listener on 0.0.0.0 holds it too). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** Waits until the child has bound its port (its config file exists) and answers the expected chain id. */
async function waitUntilServing(url: string, boundProof: string, chainId: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answered = existsSync(boundProof) ? await rpcChainId(url).catch(() => null) : null;
    if (answered !== null) {
      if (answered !== chainId) throw new Error(`the node at ${url} answers chain id ${answered}, not ${chainId}`);
      return;
    }
    if (Date.now() > deadline) throw new Error(`anvil did not answer at ${url} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function rpcChainId(url: string): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' });
  const { result } = (await res.json()) as { result?: string };
  if (!result) throw new Error(`no chain id from ${url}`);
  return Number(result);
}
