/** How the world's embedded venues and feeds are served: one HTTP server on loopback, closed with its connections, JSON answers, and a request body read under a cap. */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on 127.0.0.1 (`port` 0: a free one); the base URL, and a close that drops open connections too. */
export async function listenOnLoopback(server: Server, port = 0): Promise<{ base: string; close(): Promise<void> }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The request's body as text; rejects past `maxBytes` (read to the end, never held). */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= maxBytes) chunks.push(c);
    });
    req.on('end', () => (size > maxBytes ? reject(new Error(`body over ${maxBytes} bytes`)) : resolve(Buffer.concat(chunks).toString())));
    req.on('error', reject);
  });
}

/** A JSON answer with its length. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}
