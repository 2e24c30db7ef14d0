/** The one error shape on the wire: express's error handler, the challenge lane's, node's parser errors. */
import type { NextFunction, Request, Response } from 'express';
import type { Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { SibylError } from '../skills/core/errors.js';
import { toSibylError } from '../skills/core/error-mapping.js';

export function errorHandler(log: (msg: string, err: unknown) => void) {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction) => writeError(res, err, log);
}

/** Answers `err` in the one error shape on any node response (express's or the challenge lane's). */
export function writeError(res: ServerResponse, err: unknown, log: (msg: string, err: unknown) => void): void {
  const mapped = toSibylError(err);
  if (mapped.code === 'internal_error') log('unhandled error', err);
  if (res.headersSent) return;
  const body = Buffer.from(JSON.stringify(mapped.toBody()));
  const headers: Record<string, string | number> = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length };
  if (mapped.extra.retryAfterSeconds !== undefined) headers['Retry-After'] = String(mapped.extra.retryAfterSeconds);
  if (mapped.extra.wwwAuthenticate) headers['WWW-Authenticate'] = mapped.extra.wwwAuthenticate;
  res.writeHead(mapped.status, headers).end(body);
}

/**
 * After answering a request the parser refused, the connection closes, but not at once: closing a
 * socket with the rest of the request still unread makes the kernel reset the connection, and a
 * client still sending loses the answer to ECONNRESET (a bad header line or 16 KiB of headers
 * followed by a body: about a third of such connections on loopback). The rest is read and
 * dropped for at most this long, or this many bytes, while the client reads the answer and ends.
 */
const LINGER_MS = 2_000;
const LINGER_BYTES = 1024 * 1024;

/**
 * Errors node's HTTP parser meets before express sees the request. Oversized headers get 431 in
 * the JSON error shape; the rest get node's own bare answers (408 on a timeout, 400 otherwise).
 */
export function answerClientErrors(server: Server): void {
  // Sockets answered and closing: the parser reports every later chunk as another error.
  const lingering = new WeakMap<Duplex, number>();
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const readFrom = lingering.get(socket);
    if (readFrom !== undefined) {
      if ((socket as Duplex & { bytesRead: number }).bytesRead - readFrom > LINGER_BYTES) socket.destroy();
      return;
    }
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) return void socket.destroy();
    lingering.set(socket, (socket as Duplex & { bytesRead: number }).bytesRead);
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      const body = JSON.stringify(new SibylError('headers_too_large', 'the request headers exceed 16 KiB').toBody());
      return void socket.end(`HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    }
    const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
  });
}
