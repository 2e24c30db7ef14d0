/**
 * Maps anything thrown to the one error shape; unknown failures become internal_error. Beside
 * SibylError because every surface (HTTP, A2A, MCP, the payments core) answers through it.
 */
import { BaseError as ViemError, HttpRequestError, TimeoutError, RpcRequestError } from 'viem';
import { ChainUnavailableError } from '../../chain/runtime.js';
import { SibylError } from './errors.js';
import { isStoreOutage, STORE_RETRY_AFTER_SECONDS } from '../../store/outage.js';
import { EsploraUnavailableError } from '../../chain/esplora.js';

export function toSibylError(err: unknown): SibylError {
  if (err instanceof SibylError) return err;
  if (err instanceof ChainUnavailableError) return new SibylError('chain_unavailable', err.message);
  // The shared store down or not answering: an outage, not an unexpected failure.
  if (isStoreOutage(err)) {
    return new SibylError('upstream_unavailable', 'the shared store did not answer; nothing was charged', { retryAfterSeconds: STORE_RETRY_AFTER_SECONDS });
  }
  if (err instanceof EsploraUnavailableError) return new SibylError('upstream_unavailable', `the Bitcoin chain's Esplora API did not answer; nothing was charged`);
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
  // The original stays as the cause, for the log (never for the answer).
  return Object.assign(new SibylError('internal_error', 'an unexpected error occurred; nothing was charged'), { cause: err });
}
