/**
 * A loopback TCP proxy in front of a Redis that trips on a command: the first chunk a client
 * sends that matches `trip` is not forwarded, `onTrip` is awaited (a test kills Redis there),
 * and every connection through the proxy is cut. So a test can take the store away at one exact
 * step of a request (say, the settler's nonce), not just somewhere around it.
 */
import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface RedisTrip {
  readonly url: string;
  /** What trips it (matched against each chunk a client sends, as text); off when undefined. */
  trip: RegExp | undefined;
  onTrip: (() => Promise<void>) | undefined;
  /** How many times it tripped. */
  readonly tripped: number;
  close(): Promise<void>;
}

export async function startRedisTrip(targetPort: number): Promise<RedisTrip> {
  const sockets = new Set<Socket>();
  let tripped = 0;
  let cutting = false;
  const proxy: RedisTrip = {
    url: '',
    trip: undefined,
    onTrip: undefined,
    get tripped() {
      return tripped;
    },
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
      s.on('error', () => {});
    }
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('data', (chunk) => {
      if (cutting) return;
      if (proxy.trip?.test(chunk.toString('latin1'))) {
        cutting = true;
        proxy.trip = undefined;
        tripped++;
        void (proxy.onTrip?.() ?? Promise.resolve()).finally(() => {
          for (const s of sockets) s.destroy();
          cutting = false;
        });
        return;
      }
      upstream.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  (proxy as { url: string }).url = `redis://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
