/** Maps anything thrown to the one error shape; unknown failures become internal_error. */
import type { NextFunction, Request, Response } from 'express';
import type { Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { BaseError as ViemError, HttpRequestError, TimeoutError, RpcRequestError } from 'viem';
import { ChainUnavailableError } from '../chain/runtime.js';
import { SibylError } from '../skills/errors.js';
import { StoreTimeoutError } from '../store/deadline.js';

/** node-redis's errors for a connection that is gone (the client reconnects on its own). */
const STORE_OUTAGES = new Set(['ClientClosedError', 'ClientOfflineError', 'SocketClosedUnexpectedlyError', 'ConnectionTimeoutError']);

export function toSibylError(err: unknown): SibylError {
  if (err instanceof SibylError) return err;
  if (err instanceof ChainUnavailableError) return new SibylError('chain_unavailable', err.message);
  // The shared store down or not answering: an outage, not an unexpected failure.
  if (err instanceof StoreTimeoutError || STORE_OUTAGES.has((err as Error)?.name)) {
    return new SibylError('upstream_unavailable', 'the shared store did not answer; nothing was charged');
  }
  if (err instanceof ViemError && (err.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError || e instanceof RpcRequestError))) {
    return new SibylError('upstream_unavailable', `the chain did not answer: ${err.shortMessage}`);
  }
  const e = err as { type?: string; status?: number };
  if (e?.type === 'entity.parse.failed') return new SibylError('invalid_json', 'the body is not valid JSON');
  if (e?.type === 'entity.too.large') return new SibylError('payload_too_large', 'the body exceeds 64 KiB');
  // A body that does not inflate under its Content-Encoding, or does not match its Content-Length.
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string' && /^(Z_|ERR__ERROR_|ERR_BROTLI|ERR_ZLIB)/.test(code)) return new SibylError('invalid_json', 'the body does not decode under its Content-Encoding');
  if (e?.type === 'request.size.invalid' || e?.type === 'request.aborted') return new SibylError('invalid_json', 'the body is incomplete');
  if (e?.status === 415 || e?.type === 'charset.unsupported' || e?.type === 'encoding.unsupported') {
    return new SibylError('unsupported_media_type', 'the body must be application/json in UTF-8');
  }
  return new SibylError('internal_error', 'an unexpected error occurred; nothing was charged');
}

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
 * Errors node's HTTP parser meets before express sees the request. Oversized headers get 431 in
 * the JSON error shape; the rest get node's own bare answers (408 on a timeout, 400 otherwise).
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) return void socket.destroy();
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      const body = JSON.stringify(new SibylError('headers_too_large', 'the request headers exceed 16 KiB').toBody());
      return void socket.end(`HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    }
    const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
  });
}
