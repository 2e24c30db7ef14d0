/**
 * Runs an anvil node (from the `@foundry-rs/anvil` npm package, whose platform package ships
 * the binary: nothing is downloaded) as a child process bound to 127.0.0.1.
 *
 * A node is handed out only when it is the child spawned here: the port was free before the
 * spawn, the child is alive, it wrote its `--config-out` file (anvil does so only after its own
 * listener bound, so a node that held the port first cannot pass for it) and it answers the
 * expected chain id.
 *
 * A node started with `persist` dumps its whole state (blocks, receipts and logs included) to a
 * file every `intervalSeconds` (anvil's own --dump-state/--state-interval) and, if it dies, is
 * started again from that dump on the same port: at most the last interval of blocks is lost.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
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
  /** Dump the state every `intervalSeconds` and restart the node from it if it dies. */
  persist?: { intervalSeconds: number; onRestart?: () => void };
}

/** A node's life as its supervisor sees it (for /healthz). */
export interface NodeStatus {
  readonly status: 'running' | 'restarting' | 'stopped';
  /** The node's process id while running. */
  readonly pid: number | null;
  readonly restarts: number;
  readonly lastRestartAt: string | null;
  /** How the node last died (exit code or signal, and when). */
  readonly lastExit: string | null;
  /** Why the last restart attempt failed, while restarting. */
  readonly lastError: string | null;
  /** Seconds between state dumps: a restart loses at most the blocks of the last interval. */
  readonly stateIntervalSeconds: number | null;
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
  status(): NodeStatus;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
/** First pause before a dead node is started again. */
const RESTART_DELAY_MS = 1_000;
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
  const persist = options.persist && { ...options.persist, dir: await mkdtemp(join(tmpdir(), `sibyl-anvil-state-${options.chainId}-`)) };
  const dumpFile = persist && join(persist.dir, 'state.json');
  const dumpArgs = persist ? ['--dump-state', dumpFile!, '--state-interval', String(persist.intervalSeconds)] : [];
  let child: ChildProcess;
  try {
    child = await launch(options, port, options.loadStatePath, dumpArgs);
  } catch (err) {
    if (persist) await rm(persist.dir, { recursive: true, force: true });
    throw err;
  }
  const state = { status: 'running' as NodeStatus['status'], restarts: 0, lastRestartAt: null as string | null, lastExit: null as string | null, lastError: null as string | null };
  let stopping = false;

  // The newest dump, else the state it was first loaded from (if still there), else nothing.
  const restartState = () => (dumpFile && existsSync(dumpFile) ? dumpFile : options.loadStatePath && existsSync(options.loadStatePath) ? options.loadStatePath : undefined);
  const restart = async () => {
    for (let attempt = 0; !stopping; attempt++) {
      // A pause first (then backing off), so a node that dies at once is not respawned in a hot loop.
      await new Promise((r) => setTimeout(r, Math.min(5_000, RESTART_DELAY_MS * 2 ** attempt)));
      if (stopping) return;
      try {
        // Never adopt a node that took the port meanwhile: the port must be free for our child.
        if (!(await portIsFree(port))) throw new PortTakenError(port);
        const next = await launch(options, port, restartState(), dumpArgs);
        if (stopping) return void next.kill('SIGKILL');
        child = next;
        Object.assign(state, { status: 'running', restarts: state.restarts + 1, lastRestartAt: new Date().toISOString(), lastError: null });
        supervise(next);
        persist!.onRestart?.();
        return;
      } catch (err) {
        state.lastError = (err as Error).message.split('\n')[0]!;
      }
    }
  };
  const supervise = (c: ChildProcess) => {
    if (!persist) return;
    c.once('exit', (code, signal) => {
      if (stopping) return;
      state.status = 'restarting';
      state.lastExit = `${signal ? `killed by ${signal}` : `exited with code ${code}`} at ${new Date().toISOString()}`;
      void restart();
    });
  };
  supervise(child);

  return {
    rpcUrl: `http://127.0.0.1:${port}`,
    port,
    status: () => ({ ...state, pid: state.status === 'running' ? child.pid ?? null : null, stateIntervalSeconds: persist?.intervalSeconds ?? null }),
    stop: async () => {
      stopping = true;
      state.status = 'stopped';
      const c = child;
      await new Promise<void>((resolve) => {
        if (c.exitCode !== null || c.signalCode !== null) return resolve();
        c.once('exit', () => resolve());
        c.kill('SIGTERM');
        setTimeout(() => c.kill('SIGKILL'), 2_000).unref();
      });
      if (persist) await rm(persist.dir, { recursive: true, force: true });
    },
  };
}

/** Spawns one anvil child on `port` and waits until it is proven to be the node serving there. */
async function launch(options: AnvilOptions, port: number, loadStatePath: string | undefined, extraArgs: readonly string[]): Promise<ChildProcess> {
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
    ...(loadStatePath ? ['--load-state', loadStatePath] : []),
    ...extraArgs,
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
    await Promise.race([waitUntilServing(rpcUrl, boundProof, options.chainId, loadStatePath ? 120_000 : 15_000), exited]);
  } catch (err) {
    child.kill('SIGKILL');
    live.delete(child);
    throw err;
  } finally {
    await rm(boundProof, { force: true });
  }
  exited.catch(() => {});
  child.once('exit', () => live.delete(child));
  return child;
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
