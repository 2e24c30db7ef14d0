/**
 * Runs an anvil node (from the `@foundry-rs/anvil` npm package, whose platform package ships
 * the binary: nothing is downloaded) as a child process bound to 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
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
  const args = [
    '--host', '127.0.0.1',
    '--port', String(options.port),
    '--chain-id', String(options.chainId),
    '--mnemonic', DEV_MNEMONIC,
    '--accounts', String(options.accounts ?? 10),
    '--balance', String(options.balanceEth ?? 10_000),
    '--disable-console-log',
    ...(options.genesisTimestamp !== undefined ? ['--timestamp', String(options.genesisTimestamp)] : []),
  ];
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);

  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`anvil did not start within 15 s: ${out.slice(-500)}`)), 15_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Listening on 127\.0\.0\.1:(\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stdout!.resume(); // keep draining so the pipe never blocks anvil
        resolve(Number(match[1]));
      }
    };
    const fail = (err: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      live.delete(child);
      reject(err);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`anvil exited with code ${code}: ${out.slice(-500)}`)));
  });
  child.removeAllListeners('exit');
  child.once('exit', () => live.delete(child));

  return {
    rpcUrl: `http://127.0.0.1:${port}`,
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
