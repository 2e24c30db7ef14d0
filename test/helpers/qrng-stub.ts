/**
 * A loopback QRNG provider speaking the ANU QRNG API format (`GET /?length=N&type=uint8`, key in
 * `x-api-key`, answer `{"success":true,"type":"uint8","length":N,"data":[...]}`), for tests. It
 * serves bytes from a seeded SHA-256 stream, records every request and every byte it served (so
 * a test can tell its bytes from anyone else's), and can be switched to misbehave.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type QrngStubMode =
  | 'ok'
  /** HTTP 500. */
  | 'http-error'
  /** 200 with a body that is not JSON. */
  | 'not-json'
  /** `{"success": false, "message": ...}` as the real API answers an over-quota key. */
  | 'success-false'
  /** One byte fewer than asked. */
  | 'short'
  /** A value above 255. */
  | 'out-of-range'
  /** `type: "hex16"`. */
  | 'wrong-type'
  /** Every byte zero: a stuck source. */
  | 'stuck'
  /** Never answers (the client's timeout must fire). */
  | 'hang';

export interface QrngStubRequest {
  readonly length: string | null;
  readonly type: string | null;
  readonly apiKey: string | null;
}

export interface QrngStub {
  readonly url: string;
  readonly host: string;
  mode: QrngStubMode;
  readonly requests: QrngStubRequest[];
  /** Every byte served in `ok` mode, per request. */
  readonly served: Uint8Array[];
  close(): Promise<void>;
}

export async function startQrngStub(options: { seed?: string; apiKey?: string; mode?: QrngStubMode } = {}): Promise<QrngStub> {
  let counter = 0;
  const next = (n: number): Uint8Array => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 32) {
      const block = createHash('sha256').update(`${options.seed ?? 'qrng-stub'}:${counter++}`).digest();
      out.set(block.subarray(0, Math.min(32, n - i)), i);
    }
    return out;
  };
  const requests: QrngStubRequest[] = [];
  const served: Uint8Array[] = [];
  const hanging = new Set<import('node:http').ServerResponse>();
  const stub = { mode: options.mode ?? 'ok', requests, served } as { mode: QrngStubMode; requests: QrngStubRequest[]; served: Uint8Array[] };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const apiKey = (req.headers['x-api-key'] as string | undefined) ?? null;
    requests.push({ length: url.searchParams.get('length'), type: url.searchParams.get('type'), apiKey });
    const send = (status: number, body: string) => res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    if (options.apiKey && apiKey !== options.apiKey) return send(403, JSON.stringify({ message: 'Forbidden' }));
    const length = Number(url.searchParams.get('length'));
    if (!Number.isInteger(length) || length < 1 || length > 1024 || url.searchParams.get('type') !== 'uint8') {
      return send(200, JSON.stringify({ success: false, message: 'length must be 1-1024 and type uint8' }));
    }
    switch (stub.mode) {
      case 'hang':
        hanging.add(res);
        return;
      case 'http-error':
        return send(500, JSON.stringify({ message: 'Internal server error' }));
      case 'not-json':
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
      case 'success-false':
        return send(200, JSON.stringify({ success: false, message: 'Limit Exceeded' }));
      case 'stuck':
        return send(200, JSON.stringify({ success: true, type: 'uint8', length, data: new Array(length).fill(0) }));
      case 'short':
        return send(200, JSON.stringify({ success: true, type: 'uint8', length, data: [...next(length - 1)] }));
      case 'out-of-range':
        return send(200, JSON.stringify({ success: true, type: 'uint8', length, data: [...next(length - 1), 256] }));
      case 'wrong-type':
        return send(200, JSON.stringify({ success: true, type: 'hex16', length, data: [...next(length)] }));
      case 'ok': {
        const bytes = next(length);
        served.push(bytes);
        return send(200, JSON.stringify({ success: true, type: 'uint8', length, data: [...bytes] }));
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(stub, {
    url: `http://127.0.0.1:${port}/`,
    host: `127.0.0.1:${port}`,
    close: async () => {
      for (const res of hanging) res.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Clients keep connections alive; close() alone would wait for them.
      server.closeAllConnections();
      await closed;
    },
  });
}
