/**
 * A loopback JSON-RPC proxy in front of a node that makes it look busy or gone: requests carrying
 * one of the given methods are held back `delayMs`, a run of them can have its connection reset
 * now and then (a node that drops a request under load), and the proxy can stop listening
 * altogether (connections refused) and listen again on the same port. It counts the slowed calls
 * and how many were in flight at once (slow-rpc.ts is this proxy without the faults).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FlakyRpc {
  readonly url: string;
  /** Of every `every` requests carrying a slowed method, the first `run` are reset (0: none). */
  resets: { run: number; every: number };
  /** Requests reset so far. */
  readonly reset: number;
  /** Most calls of the slowed methods ever in flight together. */
  readonly maxInFlight: number;
  /** Calls of the slowed methods seen so far (reset ones not counted). */
  readonly calls: number;
  /** Stop listening: every connection is refused until `accept()`. */
  refuse(): Promise<void>;
  /** Listen again on the same port. */
  accept(): Promise<void>;
  close(): Promise<void>;
}

export async function startFlakyRpc(target: string, slowed: readonly string[], delayMs: number): Promise<FlakyRpc> {
  let matching = 0;
  let reset = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let calls = 0;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const parsed = JSON.parse(body) as { method: string } | { method: string }[];
    // viem batches concurrent calls into one body: each slowed call in it counts.
    const slow = (Array.isArray(parsed) ? parsed : [parsed]).filter((r) => slowed.includes(r.method)).length;
    if (slow && proxy.resets.run > 0 && matching++ % proxy.resets.every < proxy.resets.run) {
      reset++;
      res.socket?.destroy();
      return;
    }
    inFlight += slow;
    calls += slow;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      if (slow) await new Promise((r) => setTimeout(r, delayMs));
      const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      res.writeHead(upstream.status, { 'content-type': 'application/json' });
      res.end(await upstream.text());
    } catch (err) {
      res.writeHead(502).end(String(err));
    } finally {
      inFlight -= slow;
    }
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const stop = () => new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const proxy: FlakyRpc = {
    url: `http://127.0.0.1:${port}`,
    resets: { run: 0, every: 1 },
    get reset() {
      return reset;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    get calls() {
      return calls;
    },
    refuse: stop,
    accept: () => listen(port),
    close: () => (server.listening ? stop() : Promise.resolve()),
  };
  return proxy;
}
