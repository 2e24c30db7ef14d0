/**
 * A private redis-server on a free loopback port, for tests that kill and restart Redis (the
 * shared one on 6379 is never touched). Its data directory is a temporary folder; with `aof`
 * the server runs with appendonly (fsync every write), so a restart on the same directory
 * keeps what was acknowledged.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../chain/anvil.js';

export interface PrivateRedis {
  readonly url: string;
  readonly port: number;
  /** SIGKILL: no shutdown save, clients see connection resets. */
  kill(): Promise<void>;
  /** Starts again on the same port and data directory. */
  restart(): Promise<void>;
  /** Kills it and removes its data directory. */
  stop(): Promise<void>;
}

/** `aof: true` fsyncs every write; `'everysec'` as docs/operations.md recommends for production (a kill may lose the last second). */
export async function startPrivateRedis(options: { aof?: boolean | 'everysec' } = {}): Promise<PrivateRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'sibyl-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;

  const launch = async () => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--daemonize', 'no'];
    args.push(...(options.aof ? ['--appendonly', 'yes', '--appendfsync', options.aof === 'everysec' ? 'everysec' : 'always'] : ['--appendonly', 'no']));
    const proc = spawn('redis-server', args, { stdio: 'ignore' });
    child = proc;
    const exited = new Promise<never>((_, reject) => proc.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`))));
    exited.catch(() => {});
    for (let i = 0; i < 100; i++) {
      if (await answers(port)) return;
      if (proc.exitCode !== null) await exited;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server on ${port} did not answer`);
  };
  const kill = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGKILL');
    });
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    restart: launch,
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.once('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}
