/**
 * A loopback JSON-RPC proxy in front of a node that holds back every request body carrying one
 * of the given methods (a slow `eth_getLogs`, as public RPCs often are), and counts how many
 * such calls were in flight at once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlowRpc {
  readonly url: string;
  /** Most calls of the slowed methods ever in flight together. */
  readonly maxInFlight: number;
  /** Calls of the slowed methods seen so far. */
  readonly calls: number;
  close(): Promise<void>;
}

export async function startSlowRpc(target: string, slowed: readonly string[], delayMs: number): Promise<SlowRpc> {
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get maxInFlight() {
      return maxInFlight;
    },
    get calls() {
      return calls;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
