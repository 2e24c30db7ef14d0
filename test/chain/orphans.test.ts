/**
 * No node outlives its Sibyl unnoticed. A process holding an embedded chain is killed with
 * SIGKILL (no exit hook runs): its node dies with it (the parent-death signal), or, when it
 * survived (started without that signal here, as on a system without setpriv), the next start
 * on the port finds the ownership record, proves the node an orphan of Sibyl's (alive, anvil,
 * the record's token and port in its command line, its starter gone), stops it and takes the
 * port. A node whose starter still runs, and a foreign node a record falsely names, are never
 * touched: the port stays taken (PortTakenError), as before.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http } from 'viem';
import { anvilBinary, freePort, PortTakenError, startAnvil, type AnvilNode } from '../../chain/anvil.js';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { CHAINS } from '../../chain/chains.js';

const ROOT = join(import.meta.dirname, '..', '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Running and not a zombie (a killed child of a dead parent may linger as one; it holds no port). */
function runs(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!);
  } catch {
    return false;
  }
}

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

const chainIdAt = (port: number) => createPublicClient({ transport: http(`http://127.0.0.1:${port}`, { retryCount: 0 }) }).getChainId();

describe('a Sibyl killed with SIGKILL while it holds a devnet', () => {
  const holders: ChildProcess[] = [];
  const pids: number[] = [];
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    for (const h of holders) if (h.exitCode === null && h.signalCode === null) h.kill('SIGKILL');
    for (const pid of pids) if (runs(pid)) process.kill(pid, 'SIGKILL');
  });

  /** A node process holding a chain on `port` through chain/anvil.ts; resolves with its node's pid. */
  async function holder(port: number, dieWithParent: 'on' | 'off'): Promise<{ process: ChildProcess; nodePid: number }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/node-holder.ts', String(port), dieWithParent], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    holders.push(child);
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (c: string) => {
        out += c;
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      });
      child.once('exit', (code) => reject(new Error(`the holder exited with code ${code} before its node served`)));
    });
    const { pid } = JSON.parse(line) as { pid: number };
    pids.push(pid);
    expect(parentOf(pid)).toBe(child.pid);
    expect(await chainIdAt(port)).toBe(8453);
    return { process: child, nodePid: pid };
  }

  it('its node dies with it, and the port is free for the next start', async () => {
    const port = await freePort();
    const { process: sibyl, nodePid } = await holder(port, 'on');
    sibyl.kill('SIGKILL');
    await until('the node to die with its parent', () => !runs(nodePid), 5_000);
    const next = await startAnvil({ chainId: 8453, port });
    cleanup.push(() => next.stop());
    expect(await chainIdAt(port)).toBe(8453);
    expect(next.status().pid).not.toBe(nodePid);
  });

  it('a node that survived it is reclaimed by the next start on its port', async () => {
    const port = await freePort();
    const { process: sibyl, nodePid } = await holder(port, 'off');
    sibyl.kill('SIGKILL');
    await until('the holder to be gone', () => sibyl.exitCode !== null || sibyl.signalCode !== null);
    await sleep(300);
    // Orphaned: alive, handed to another parent, still holding the port.
    expect(runs(nodePid)).toBe(true);
    expect(parentOf(nodePid)).not.toBe(sibyl.pid);
    expect(await chainIdAt(port)).toBe(8453);

    // The next start (a devnet as `npm start` makes it, EMBEDDED_RPC_PORT fixed) takes the port back.
    const progress: string[] = [];
    const devnet: Devnet = await startDevnet({ chains: ['base'], basePort: port, onProgress: (m) => progress.push(m) });
    cleanup.push(() => devnet.stop());
    expect(runs(nodePid)).toBe(false);
    expect(devnet.chains[0]!.rpcUrl).toBe(`http://127.0.0.1:${port}`);
    expect(await createPublicClient({ transport: http(devnet.chains[0]!.rpcUrl) }).getCode({ address: CHAINS.base.usdc })).toMatch(/^0x[0-9a-f]{100,}/);
    expect(progress.join('\n')).toContain(`port ${port}: stopped the chain 8453 node (pid ${nodePid}) left running by Sibyl process ${sibyl.pid}, which is gone`);
  });

  it('a node whose starter still runs is not taken: the port stays taken', async () => {
    const port = await freePort();
    const { nodePid } = await holder(port, 'on');
    const failure = await startAnvil({ chainId: 8453, port }).then((n: AnvilNode) => n.stop().then(() => null), (err: unknown) => err);
    expect(failure).toBeInstanceOf(PortTakenError);
    expect(runs(nodePid)).toBe(true);
    expect(await chainIdAt(port)).toBe(8453);
  });

  it('a foreign node that a record names (its starter gone) is not ours: it keeps the port', async () => {
    const port = await freePort();
    const foreign = spawn(anvilBinary(), ['--host', '127.0.0.1', '--port', String(port), '--quiet'], { stdio: 'ignore' });
    pids.push(foreign.pid!);
    cleanup.push(async () => void foreign.kill('SIGKILL'));
    await until('the foreign node to serve', () => chainIdAt(port).then(() => true, () => false));
    const stat = readFileSync(`/proc/${foreign.pid}/stat`, 'utf8');
    const startTime = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    // A record naming the foreign node, with a starter that is gone and a token its command line lacks.
    mkdirSync(join(tmpdir(), 'sibyl-nodes'), { recursive: true });
    const record = join(tmpdir(), 'sibyl-nodes', `${port}.json`);
    cleanup.push(async () => rmSync(record, { force: true }));
    writeFileSync(record, JSON.stringify({
      pid: foreign.pid, port, chainId: 8453, startTime, token: 'not-in-its-command-line', owner: 2 ** 22 + 17, ownerStartTime: 1, startedAt: new Date().toISOString(),
    }));
    const failure = await startAnvil({ chainId: 8453, port }).then((n) => n.stop().then(() => null), (err: unknown) => err);
    expect(failure).toBeInstanceOf(PortTakenError);
    expect(runs(foreign.pid!)).toBe(true);
    expect(await chainIdAt(port)).toBe(31337);
  });
});
