/**
 * Quantum randomness from a configured QRNG provider (QRNG_URL, optional QRNG_API_KEY), spoken
 * in the ANU QRNG API format: `GET {url}?length=N&type=uint8`, key in `x-api-key`, answer
 * `{"success":true,"type":"uint8","length":N,"data":[...]}`. Every answer is checked (shape,
 * length, byte range, a stuck-source test) and refused when it fails: there is never a fallback
 * to OS randomness under a quantum name (docs/skills.md, "Post-quantum").
 */
import { SibylError, type ErrorCode } from '../../core/errors.js';

/** The most bytes one ANU request returns (its API caps `length` at 1024). */
export const QRNG_MAX_BYTES = 1024;
const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * 503 `provider_unavailable` (docs/protocols.md, "Errors"). Until skills/core/errors.ts lists that code, the same
 * status under `upstream_unavailable`: a refusal must never crash on an unknown code.
 */
export const PROVIDER_UNAVAILABLE: ErrorCode = 'provider_unavailable';

/** A source of quantum random bytes, as skills see it (`ctx.qrng`). */
export interface QrngProvider {
  /** The provider's host, named in answers (`qrng:<host>`); never its path, query or key. */
  readonly host: string;
  /** Exactly `length` bytes (1..QRNG_MAX_BYTES) from the provider; throws a SibylError (503) otherwise. */
  random(length: number, signal?: AbortSignal): Promise<Uint8Array>;
}

export interface QrngSettings {
  readonly url: string;
  readonly apiKey: string | undefined;
}

/** The provider for the service's config (`config.qrng`), or none: then quantum randomness is refused before payment. */
export function qrngProviderFromConfig(settings: QrngSettings | undefined, options: { fetch?: typeof fetch; timeoutMs?: number } = {}): QrngProvider | undefined {
  return settings ? new AnuQrngProvider(settings, options) : undefined;
}

/** A client of the ANU QRNG API format. */
export class AnuQrngProvider implements QrngProvider {
  readonly host: string;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;

  constructor(private readonly settings: QrngSettings, options: { fetch?: typeof fetch; timeoutMs?: number } = {}) {
    this.host = new URL(settings.url).host;
    this.fetchImpl = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async random(length: number, signal?: AbortSignal): Promise<Uint8Array> {
    if (!Number.isInteger(length) || length < 1 || length > QRNG_MAX_BYTES) throw new RangeError(`QRNG length must be 1-${QRNG_MAX_BYTES}, got ${length}`);
    const url = new URL(this.settings.url);
    url.searchParams.set('length', String(length));
    url.searchParams.set('type', 'uint8');
    const timeout = AbortSignal.timeout(this.timeoutMs);
    let body: unknown;
    try {
      const res = await this.fetchImpl(url, {
        headers: { accept: 'application/json', ...(this.settings.apiKey && { 'x-api-key': this.settings.apiKey }) },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      if (!res.ok) throw this.refusal(`answered HTTP ${res.status}`);
      body = await res.json().catch(() => {
        throw this.refusal('answered something that is not JSON');
      });
    } catch (err) {
      if (err instanceof SibylError) throw err;
      // The cause may carry the URL: only its kind is named (the key may sit in a query).
      throw this.refusal(timeout.aborted ? `did not answer within ${this.timeoutMs} ms` : `could not be reached (${(err as Error).name})`);
    }
    const problem = anuAnswerProblem(body, length);
    if (problem) throw this.refusal(problem);
    return Uint8Array.from((body as { data: number[] }).data);
  }

  private refusal(what: string): SibylError {
    return new SibylError(PROVIDER_UNAVAILABLE, `the quantum random-number provider (${this.host}) ${what}; no OS randomness is sold in its place, and nothing was charged`, { reason: 'qrng_provider_failed' });
  }
}

/** Why an ANU-format answer cannot be used for `length` bytes, or null when it can. */
export function anuAnswerProblem(body: unknown, length: number): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'answered something that is not a JSON object';
  const b = body as Record<string, unknown>;
  if (b.success !== true) return `answered success: ${JSON.stringify(b.success ?? null)}${typeof b.message === 'string' ? ` (${b.message.slice(0, 120)})` : ''}`;
  if (b.type !== 'uint8') return `answered type ${JSON.stringify(b.type ?? null)}, not uint8`;
  // The API has sent `length` both as a number and as a numeric string.
  if (b.length !== undefined && Number(b.length) !== length) return `answered length ${JSON.stringify(b.length)} for ${length} requested`;
  if (!Array.isArray(b.data)) return 'answered without a data array';
  if (b.data.length !== length) return `answered ${b.data.length} bytes for ${length} requested`;
  if (!b.data.every((v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 255)) return 'answered values that are not bytes (integers 0-255)';
  const run = longestRun(b.data as number[]);
  if (run >= STUCK_RUN) return `answered ${run} identical bytes in a row (a stuck source fails NIST SP 800-90B's repetition count test)`;
  return null;
}

/**
 * NIST SP 800-90B 4.4.1 repetition count test for a full-entropy byte source (H = 8 bits) at a
 * false-alarm rate of 2^-40: cutoff C = 1 + ceil(40 / 8) = 6 identical bytes in a row.
 */
export const STUCK_RUN = 1 + Math.ceil(40 / 8);

function longestRun(data: readonly number[]): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < data.length; i++) {
    run = i > 0 && data[i] === data[i - 1] ? run + 1 : 1;
    longest = Math.max(longest, run);
  }
  return longest;
}

/** Bytes as the caller asked for them. */
export type RandomFormat = 'hex' | 'base64' | 'uint8';
export function formatBytes(bytes: Uint8Array, format: RandomFormat): string | number[] {
  if (format === 'hex') return Buffer.from(bytes).toString('hex');
  if (format === 'base64') return Buffer.from(bytes).toString('base64');
  return [...bytes];
}
