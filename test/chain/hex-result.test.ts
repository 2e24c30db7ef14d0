/**
 * A state dump's hex result written to a file a chunk at a time (docs/operations.md, "Faults": decoding it
 * whole held the event loop for up to 1.4 s per chain while the world cache was written).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeHexResult } from '../../chain/hex-result.js';

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

  it('writes 16 MB of state a chunk at a time, never holding the whole answer', async () => {
    const state = randomBytes(16 * 1024 * 1024);
    answer = Buffer.from(`{"jsonrpc":"2.0","id":1,"result":"0x${state.toString('hex')}"}`);
    await fetchInto(join(dir, 'state.gz'));
    expect((await readFile(join(dir, 'state.gz'))).equals(state)).toBe(true);
    // Counted, not timed: before the answer's last chunk arrives, every byte of the chunks before
    // it is already on disk. Parsing the answer whole (JSON, then hex) would have written nothing yet.
    const path = join(dir, 'chunked.gz');
    const CHUNK = 65_536;
    let onDiskBeforeLast = -1;
    const whole = answer as Buffer;
    async function* chunks() {
      for (let i = 0; i < whole.length; i += CHUNK) {
        if (i + CHUNK >= whole.length) onDiskBeforeLast = (await stat(path)).size;
        yield whole.subarray(i, i + CHUNK);
      }
    }
    await writeHexResult(chunks(), path, 'anvil_dumpState');
    const prefix = whole.indexOf('0x') + 2;
    const lastStart = Math.floor((whole.length - 1) / CHUNK) * CHUNK;
    expect(onDiskBeforeLast).toBe(Math.floor((lastStart - prefix) / 2));
    expect((await readFile(path)).equals(state)).toBe(true);
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
