/**
 * A node that dies is restarted from its last state dump, and a dump that does not load never
 * keeps it down. anvil writes its periodic dump in place (truncate, then seconds of writing for
 * a big chain), so a death mid-write leaves the file cut: the restart then loads the next state
 * offered (here the state the node was first loaded from) instead of failing on the cut one
 * forever.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http, type Address } from 'viem';
import { startAnvil, type AnvilNode } from '../../chain/anvil.js';
import { dumpStateTo } from '../../chain/devnet.js';
import { rpc } from '../helpers/sibyl.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MARK = '0x00000000000000000000000000000000000c0ffe' as Address;

describe('a node restarted after a death', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
  });

  it('passes over a cut dump for the next state offered', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sibyl-restart-states-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    // The state it is first loaded from: MARK holds 1 wei.
    const first = await startAnvil({ chainId: 8453, port: 0 });
    await rpc(first.rpcUrl, 'anvil_setBalance', [MARK, '0x1']);
    await dumpStateTo(first.rpcUrl, join(dir, 'first.state.json.gz'));
    await first.stop();
    const loaded = join(dir, 'first.state.json');
    writeFileSync(loaded, gunzipSync(readFileSync(`${loaded}.gz`)));

    const restarts: string[] = [];
    const node: AnvilNode = await startAnvil({ chainId: 8453, port: 0, loadStatePath: loaded, persist: { intervalSeconds: 1, onRestart: (from) => restarts.push(from) } });
    cleanup.push(() => node.stop());
    const client = createPublicClient({ transport: http(node.rpcUrl) });
    expect(await client.getBalance({ address: MARK })).toBe(1n);
    await rpc(node.rpcUrl, 'anvil_setBalance', [MARK, '0x5']);

    const pid = node.status().pid!;
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const dump = argv[argv.indexOf('--dump-state') + 1]!;
    // Its own dump holds MARK's 5 wei once one was written after the change.
    const deadline = Date.now() + 10_000;
    const changedAt = Date.now();
    while (!((statSync(dump, { throwIfNoEntry: false })?.mtimeMs ?? 0) > changedAt + 1_100)) {
      if (Date.now() > deadline) throw new Error('no state dump after the change');
      await sleep(50);
    }
    await sleep(300);
    process.kill(pid, 'SIGKILL');
    // Killed mid-write: what is on disk is the start of a dump.
    truncateSync(dump, Math.floor(statSync(dump).size / 2));

    const until = Date.now() + 30_000;
    while (!(node.status().status === 'running' && node.status().restarts === 1)) {
      if (Date.now() > until) throw new Error(`not restarted: ${JSON.stringify(node.status())}`);
      await sleep(100);
    }
    expect(restarts).toEqual([loaded]);
    expect(await client.getBalance({ address: MARK })).toBe(1n);
  });
});
