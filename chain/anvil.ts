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
 * anvil writes that file in place (truncate, then ~2 s of writing for a month-long world), so a
 * death mid-write leaves it cut: a dump that does not load is passed over for the next state
 * offered (a checkpoint, the state the node first loaded), never retried forever.
 *
 * A node dies with the process that started it (on Linux, spawned through `setpriv
 * --pdeathsig KILL`), and every node leaves an ownership record (pid, port, chain, start time, a
 * token that is also in its command line). A later start that finds the port held reads the
 * record: a node whose owner is gone and whose command line is anvil with that token and port is
 * an orphan of Sibyl's and is stopped; anything else on the port is never touched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

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
  /** A state file (anvil's JSON state: blocks, receipts and logs included; gzipped when it ends in .gz) to start from. */
  loadStatePath?: string;
  /**
   * Dump the state every `intervalSeconds` and restart the node from it if it dies. When that
   * dump is missing or does not load, the states `fallbackStates` names (newest first; JSON or
   * .gz), then `loadStatePath`, are tried in turn. `onRestart` is told which one the node runs.
   */
  persist?: { intervalSeconds: number; onRestart?: (from: string) => void; fallbackStates?: () => readonly string[] };
  /** Die with this process (Linux: the kernel kills the node when its parent dies). Default true. */
  dieWithParent?: boolean;
  /** Where a reclaimed orphan is reported. */
  onProgress?: (message: string) => void;
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
    for (const child of live) {
      child.kill('SIGKILL');
      if (child.pid) dropOwnership(ownedPorts.get(child.pid), child.pid);
    }
  });
}

/**
 * True when `port` is free, or is held by an orphaned node of Sibyl's (its ownership record
 * proves it), which is then stopped so the port can be taken again.
 */
export async function portIsFreeOrReclaimed(port: number, onProgress?: (message: string) => void): Promise<boolean> {
  if (await portIsFree(port)) return true;
  if (!(await reclaimOrphan(port, onProgress))) return false;
  // A killed multi-threaded node shows as a zombie once its first thread is gone; its socket closes
  // with the last one, a moment later on a busy machine.
  const deadline = Date.now() + 5_000;
  while (!(await portIsFree(port))) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/** Starts a node on `options.port` (PortTakenError when something holds it) or, with 0, on a free port. */
export async function startAnvil(options: AnvilOptions): Promise<AnvilNode> {
  installExitHook();
  if (options.port !== 0) {
    if (!(await portIsFreeOrReclaimed(options.port, options.onProgress))) throw new PortTakenError(options.port);
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

  // The newest dump, then the states offered (a checkpoint), then the one it first loaded: whichever are there.
  const restartStates = () => [dumpFile, ...(persist?.fallbackStates?.() ?? []), options.loadStatePath].filter((f): f is string => !!f && existsSync(f));
  const restart = async () => {
    for (let attempt = 0; !stopping; attempt++) {
      // A pause first (then backing off), so a node that dies at once is not respawned in a hot loop.
      await new Promise((r) => setTimeout(r, Math.min(5_000, RESTART_DELAY_MS * 2 ** attempt)));
      if (stopping) return;
      try {
        // Never adopt a node that took the port meanwhile: the port must be free for our child.
        if (!(await portIsFree(port))) throw new PortTakenError(port);
        const { child: next, from } = await launchFromFirst(options, port, restartStates(), dumpArgs, () => stopping);
        if (stopping) return void next.kill('SIGKILL');
        child = next;
        Object.assign(state, { status: 'running', restarts: state.restarts + 1, lastRestartAt: new Date().toISOString(), lastError: null });
        supervise(next);
        persist!.onRestart?.(from === dumpFile ? 'its last state dump' : from ?? 'an empty state');
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

/**
 * The node started from the first of `states` that loads (a cut dump makes anvil exit at once),
 * or from nothing when none is offered. Fails with the last reason when none loads.
 */
async function launchFromFirst(
  options: AnvilOptions, port: number, states: readonly string[], extraArgs: readonly string[], stopping: () => boolean,
): Promise<{ child: ChildProcess; from: string | undefined }> {
  if (!states.length) return { child: await launch(options, port, undefined, extraArgs), from: undefined };
  const failures: string[] = [];
  for (const from of states) {
    if (stopping()) break;
    try {
      return { child: await launch(options, port, from, extraArgs), from };
    } catch (err) {
      if (err instanceof PortTakenError) throw err;
      failures.push(`${basename(from)}: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  throw new Error(`no state loaded (${failures.join('; ')})`);
}

/** Spawns one anvil child on `port` and waits until it is proven to be the node serving there. */
async function launch(options: AnvilOptions, port: number, statePath: string | undefined, extraArgs: readonly string[]): Promise<ChildProcess> {
  // A gzipped state is decompressed (off the event loop) for --load-state, and removed once loaded.
  const plain = statePath?.endsWith('.gz') ? await gunzipState(statePath) : undefined;
  try {
    return await launchPlain(options, port, plain?.path ?? statePath, extraArgs);
  } finally {
    if (plain) await rm(plain.dir, { recursive: true, force: true });
  }
}

/**
 * A gzipped state as the file `anvil --load-state` reads, in a temporary folder (anvil's RPC
 * refuses a request body of a real world's size, so a state is loaded at spawn). A cut or
 * corrupt gzip fails here (its CRC and length are checked), before any node is spawned.
 */
export async function gunzipState(gzipped: string): Promise<{ dir: string; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'sibyl-state-'));
  const path = join(dir, 'state.json');
  try {
    await pipeline(createReadStream(gzipped), createGunzip(), createWriteStream(path));
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`${basename(gzipped)} is not a whole gzip file: ${(err as Error).message}`);
  }
  return { dir, path };
}

async function launchPlain(options: AnvilOptions, port: number, loadStatePath: string | undefined, extraArgs: readonly string[]): Promise<ChildProcess> {
  // In the command line (the --config-out path) and the ownership record: what proves an orphan is ours.
  const token = randomUUID();
  // Written by anvil only once its own listener is bound: proof that the node answering is this child.
  const boundProof = join(tmpdir(), `sibyl-anvil-${process.pid}-${token}.json`);
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
  const wrapper = options.dieWithParent !== false ? deathSignalWrapper() : undefined;
  const child = wrapper ? spawn(wrapper, ['--pdeathsig', 'KILL', anvilBinary(), ...args], { stdio: ['ignore', 'ignore', 'pipe'] }) : spawn(anvilBinary(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  live.add(child);
  if (child.pid) recordOwnership({ pid: child.pid, port, chainId: options.chainId, token });
  child.once('exit', () => child.pid && dropOwnership(port, child.pid));
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

// ---- ownership of nodes, and orphans --------------------------------------------------------

/** What proves a node on a port is one this service started (and whether its starter still runs). */
interface Ownership {
  readonly pid: number;
  readonly port: number;
  readonly chainId: number;
  /** The node's start time (/proc/<pid>/stat, clock ticks since boot): a reused pid has another. */
  readonly startTime: number;
  /** Also in the node's command line (its --config-out path). */
  readonly token: string;
  /** The process that started it, and that process's start time. */
  readonly owner: number;
  readonly ownerStartTime: number;
  readonly startedAt: string;
}

/** One record per port, in a folder every Sibyl on this machine uses. */
const OWNERSHIP_DIR = join(tmpdir(), 'sibyl-nodes');
const ownershipFile = (port: number) => join(OWNERSHIP_DIR, `${port}.json`);
/** Ports of this process's live children, by pid (for the exit hook). */
const ownedPorts = new Map<number, number>();
let setprivPath: string | null | undefined;

/** `setpriv` (util-linux) when present on Linux: it sets the parent-death signal, then runs anvil in its place (same pid). */
function deathSignalWrapper(): string | undefined {
  if (setprivPath === undefined) {
    setprivPath = process.platform === 'linux'
      ? (process.env.PATH ?? '/usr/bin:/bin').split(delimiter).map((d) => join(d, 'setpriv')).find((p) => existsSync(p)) ?? null
      : null;
  }
  return setprivPath ?? undefined;
}

/** A process's state, parent and start time from /proc (null where there is no /proc or no such process). */
function procStat(pid: number): { state: string; ppid: number; startTime: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' '); // after "pid (comm) "
    return { state: fields[0]!, ppid: Number(fields[1]), startTime: Number(fields[19]) };
  } catch {
    return null;
  }
}

/** Running (not a zombie) and, when given, the same process that started at `startTime`. */
function runs(pid: number, startTime?: number): boolean {
  const stat = procStat(pid);
  return !!stat && stat.state !== 'Z' && stat.state !== 'X' && (startTime === undefined || stat.startTime === startTime);
}

function recordOwnership(node: { pid: number; port: number; chainId: number; token: string }): void {
  const own = procStat(process.pid);
  const started = procStat(node.pid);
  if (!own || !started) return; // no /proc: nothing could prove ownership later anyway
  const record: Ownership = { ...node, startTime: started.startTime, owner: process.pid, ownerStartTime: own.startTime, startedAt: new Date().toISOString() };
  try {
    mkdirSync(OWNERSHIP_DIR, { recursive: true });
    // Renamed into place, so a reader never sees half a record.
    const tmp = `${ownershipFile(node.port)}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(record));
    renameSync(tmp, ownershipFile(node.port));
    ownedPorts.set(node.pid, node.port);
    // Records of nodes that are gone (their Sibyl was killed with them) prove nothing any more.
    for (const name of readdirSync(OWNERSHIP_DIR)) {
      const port = /^(\d+)\.json$/.exec(name)?.[1];
      const other = port && readOwnership(Number(port));
      if (other && !runs(other.pid, other.startTime)) dropOwnership(Number(port), other.pid);
    }
  } catch {
    // best effort: without a record an orphan is left to the parent-death signal
  }
}

function readOwnership(port: number): Ownership | null {
  try {
    return JSON.parse(readFileSync(ownershipFile(port), 'utf8')) as Ownership;
  } catch {
    return null;
  }
}

/** Removes the port's record when it still names `pid` (a restarted node wrote its own). */
function dropOwnership(port: number | undefined, pid: number): void {
  ownedPorts.delete(pid);
  if (port === undefined || readOwnership(port)?.pid !== pid) return;
  rmSync(ownershipFile(port), { force: true });
}

/**
 * Stops the node holding `port` when its ownership record proves it an orphan of Sibyl's: the
 * recorded process is alive with its recorded start time, its command line is anvil with the
 * record's token and this port, and the process that started it is gone. True when it stopped
 * it, or found it already killed (a zombie whose last threads still hold the port a moment).
 */
export async function reclaimOrphan(port: number, onProgress?: (message: string) => void): Promise<boolean> {
  const record = readOwnership(port);
  if (!record || record.port !== port) return false;
  const stat = procStat(record.pid);
  if (stat && stat.startTime === record.startTime && (stat.state === 'Z' || stat.state === 'X')) {
    // Our node, already killed (it died with its Sibyl): its socket closes when its last thread exits.
    dropOwnership(port, record.pid);
    return true;
  }
  if (!runs(record.pid, record.startTime)) {
    dropOwnership(port, record.pid); // a record of a node that is gone: whatever holds the port is not it
    return false;
  }
  if (runs(record.owner, record.ownerStartTime)) return false; // its Sibyl still runs it
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${record.pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return false;
  }
  const portArg = argv[argv.indexOf('--port') + 1];
  if (!/^anvil(\.exe)?$/.test(basename(argv[0] ?? '')) || portArg !== String(port) || !argv.some((a) => a.includes(record.token))) return false;
  try {
    process.kill(record.pid, 'SIGKILL');
  } catch {
    return false;
  }
  const deadline = Date.now() + 5_000;
  while (runs(record.pid, record.startTime) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  dropOwnership(port, record.pid);
  onProgress?.(`port ${port}: stopped the chain ${record.chainId} node (pid ${record.pid}) left running by Sibyl process ${record.owner}, which is gone`);
  return true;
}
