/**
 * Runs an anvil node (from the `@foundry-rs/anvil` npm package, whose platform package ships
 * the binary: nothing is downloaded) as a child process bound to 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
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
}

export interface AnvilNode {
  readonly rpcUrl: string;
  readonly port: number;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function anvilBinary(): string {
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

export async function startAnvil(options: AnvilOptions): Promise<AnvilNode> {
  installExitHook();
  // A port picked here may be taken by the time anvil binds it: try again on another.
  for (let attempt = 1; ; attempt++) {
    const port = options.port === 0 ? await freePort() : options.port;
    try {
      return await spawnAnvil(options, port);
    } catch (err) {
      if (options.port !== 0 || attempt >= 3) throw err;
    }
  }
}

async function spawnAnvil(options: AnvilOptions, port: number): Promise<AnvilNode> {
  const args = [
    '--host', '127.0.0.1',
    '--port', String(port),
    '--chain-id', String(options.chainId),
    '--mnemonic', DEV_MNEMONIC,
    '--accounts', String(options.accounts ?? 10),
    '--balance', String(options.balanceEth ?? 10_000),
    '--quiet', // its per-request log would cost the service a pipe read per call
    ...(options.genesisTimestamp !== undefined ? ['--timestamp', String(options.genesisTimestamp)] : []),
    ...(options.order ? ['--order', options.order] : []),
  ];
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  live.add(child);
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2_000)));
  const exited = new Promise<never>((_, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`anvil exited with code ${code}: ${stderr.trim()}`)));
  });
  const rpcUrl = `http://127.0.0.1:${port}`;
  try {
    await Promise.race([waitForRpc(rpcUrl, 15_000), exited]);
  } catch (err) {
    child.kill('SIGKILL');
    live.delete(child);
    throw err;
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForRpc(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' });
      if (res.ok) return;
    } catch {}
    if (Date.now() > deadline) throw new Error(`anvil did not answer at ${url} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
