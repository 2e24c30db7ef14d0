/**
 * What a chain's node did with the requests sent to it: when it last answered, and when a request
 * last got no answer at all (timed out, connection refused or reset, a 5xx in front of it), and
 * whether that failure was definite (refused, no such host: the node is not there) rather than
 * late. Every read is evidence, so health can tell a node that is gone from one that is only
 * slow without waiting out probes of its own.
 */
import { errorCode, isAbsent } from '../lib/errors.js';

export class RpcOutcomes {
  lastAnswerAt: number | undefined;
  lastFailureAt: number | undefined;
  lastFailure: string | undefined;
  private lastFailureDefinite = false;

  /** A `fetch` for viem's http transport that records each request's outcome. */
  readonly fetch: typeof fetch = async (input, init) => {
    try {
      const res = await fetch(input, init);
      if (res.status < 500) this.answered();
      else this.failed(`HTTP ${res.status}`, false);
      return res;
    } catch (err) {
      const name = (err as Error).name;
      const code = errorCode(err);
      this.failed(name === 'AbortError' || name === 'TimeoutError' ? 'no answer before the request timed out' : code ?? (err as Error).message, isAbsent(err));
      throw err;
    }
  };

  /** The last outcome was a failure, with no answer since. */
  get failing(): boolean {
    return this.lastFailureAt !== undefined && (this.lastAnswerAt === undefined || this.lastFailureAt > this.lastAnswerAt);
  }

  /** Why the node is gone, when the last request was refused outright and nothing answered since. */
  get definiteFailure(): string | undefined {
    return this.failing && this.lastFailureDefinite ? this.lastFailure : undefined;
  }

  private answered(): void {
    this.lastAnswerAt = Date.now();
  }

  private failed(reason: string, definite: boolean): void {
    this.lastFailureAt = Date.now();
    this.lastFailure = reason;
    this.lastFailureDefinite = definite;
  }
}
