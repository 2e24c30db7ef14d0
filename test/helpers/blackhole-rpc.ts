/**
 * A loopback HTTP proxy in front of a node that can be switched to a blackhole: while on, every
 * request is accepted and never answered (a hung or firewalled RPC), until it is switched off or
 * closed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BlackholeRpc {
  readonly url: string;
  /** Requests swallowed so far. */
  readonly swallowed: number;
  set(on: boolean): void;
  close(): Promise<void>;
}

export async function startBlackholeRpc(target: string): Promise<BlackholeRpc> {
  let on = false;
  let swallowed = 0;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (on) {
      swallowed++;
      return; // never answered: the connection stays open until the client gives up or we close
    }
    try {
      const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
      res.writeHead(upstream.status, { 'content-type': 'application/json' });
      res.end(await upstream.text());
    } catch (err) {
      res.writeHead(502).end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get swallowed() {
      return swallowed;
    },
    set: (value) => void (on = value),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
