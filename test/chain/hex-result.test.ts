/**
 * A state dump's hex result written to a file a chunk at a time (docs/operations.md, "Faults": decoding it
 * whole held the event loop for up to 1.4 s per chain while the world cache was written).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeHexResult } from '../../chain/hex-result.js';
import { longestStall } from '../helpers/stall.js';

describe('writeHexResult', () => {
  let server: Server;
  let url: string;
  let dir: string;
  let answer: string | Buffer = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sibyl-hex-'));
    // Odd-sized writes: chunk edges fall inside the prefix, between hex digit pairs and before the quote.
    server = createServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const bytes = Buffer.from(answer);
      for (let i = 0; i < bytes.length; i += 40_961) {
        if (!res.write(bytes.subarray(i, i + 40_961))) await new Promise((r) => res.once('drain', r));
      }
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await rm(dir, { recursive: true, force: true });
  });

  const fetchInto = async (path: string) => {
    const res = await fetch(url);
    return writeHexResult(res.body as unknown as AsyncIterable<Uint8Array>, path, 'anvil_dumpState');
  };

  it('writes 16 MB of state without holding the event loop', async () => {
    const state = randomBytes(16 * 1024 * 1024);
    answer = Buffer.from(`{"jsonrpc":"2.0","id":1,"result":"0x${state.toString('hex')}"}`);
    const longest = await longestStall(() => fetchInto(join(dir, 'state.gz')));
    expect((await readFile(join(dir, 'state.gz'))).equals(state)).toBe(true);
    // Whole (res.json(), then Buffer.from(hex)) the same answer held the loop 830-930 ms here
    // (streamed: 15-43 ms, up to 264 with the suite on both cores); the bound leaves room for a loaded machine.
    expect(longest).toBeLessThan(400);
  });

  it("refuses an error answer with the node's message, and a result cut short", async () => {
    answer = '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"dump failed"}}';
    await expect(fetchInto(join(dir, 'e.gz'))).rejects.toThrow('anvil_dumpState: dump failed');
    answer = '{"jsonrpc":"2.0","id":1,"result":"0xabcd';
    await expect(fetchInto(join(dir, 'cut.gz'))).rejects.toThrow(/ended inside/);
    answer = '{"jsonrpc":"2.0","id":1,"result":"0xabzz"}';
    await expect(fetchInto(join(dir, 'bad.gz'))).rejects.toThrow(/not hex/);
  });
});
