/** Maps anything thrown to the one error shape; unknown failures become internal_error. */
import type { NextFunction, Request, Response } from 'express';
import { BaseError as ViemError, HttpRequestError, TimeoutError, RpcRequestError } from 'viem';
import { ChainUnavailableError } from '../chain/runtime.js';
import { SibylError } from '../errors.js';

export function toSibylError(err: unknown): SibylError {
  if (err instanceof SibylError) return err;
  if (err instanceof ChainUnavailableError) return new SibylError('chain_unavailable', err.message);
  if (err instanceof ViemError && (err.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError || e instanceof RpcRequestError))) {
    return new SibylError('upstream_unavailable', `the chain did not answer: ${err.shortMessage}`);
  }
  const e = err as { type?: string; status?: number };
  if (e?.type === 'entity.parse.failed') return new SibylError('invalid_json', 'the body is not valid JSON');
  if (e?.type === 'entity.too.large') return new SibylError('payload_too_large', 'the body exceeds 64 KiB');
  if (e?.status === 415 || e?.type === 'charset.unsupported' || e?.type === 'encoding.unsupported') {
    return new SibylError('unsupported_media_type', 'the body must be application/json in UTF-8');
  }
  return new SibylError('internal_error', 'an unexpected error occurred; nothing was charged');
}

export function errorHandler(log: (msg: string, err: unknown) => void) {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const mapped = toSibylError(err);
    if (mapped.code === 'internal_error') log('unhandled error', err);
    if (res.headersSent) return;
    if (mapped.extra.retryAfterSeconds !== undefined) res.set('Retry-After', String(mapped.extra.retryAfterSeconds));
    if (mapped.extra.wwwAuthenticate) res.set('WWW-Authenticate', mapped.extra.wwwAuthenticate);
    res.status(mapped.status).json(mapped.toBody());
  };
}
