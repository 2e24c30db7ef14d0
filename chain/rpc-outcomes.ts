/**
 * What a chain's node did with the requests sent to it: when it last answered, when a request
 * last got no answer at all (timed out, connection refused or reset, a 5xx in front of it), and
 * since when requests have waited without any answer. Every read is evidence, so health can tell
 * a node that is only slow from one that is gone without waiting out a probe of its own.
 */
export class RpcOutcomes {
  lastAnswerAt: number | undefined;
  lastFailureAt: number | undefined;
  lastFailure: string | undefined;
  private inFlight = 0;
  private waitingSince: number | undefined;

  /** A `fetch` for viem's http transport that records each request's outcome. */
  readonly fetch: typeof fetch = async (input, init) => {
    if (this.inFlight++ === 0) this.waitingSince = Date.now();
    try {
      const res = await fetch(input, init);
      if (res.status < 500) this.answered();
      else this.failed(`HTTP ${res.status}`);
      return res;
    } catch (err) {
      const name = (err as Error).name;
      this.failed(name === 'AbortError' || name === 'TimeoutError' ? 'no answer before the request timed out' : describe(err));
      throw err;
    } finally {
      if (--this.inFlight === 0) this.waitingSince = undefined;
    }
  };

  /** The last outcome was a failure, with no answer since. */
  get failing(): boolean {
    return this.lastFailureAt !== undefined && (this.lastAnswerAt === undefined || this.lastFailureAt > this.lastAnswerAt);
  }

  /** How long requests have been waiting with no answer to any of them (0 when none waits). */
  silentForMs(now = Date.now()): number {
    return this.waitingSince === undefined ? 0 : now - this.waitingSince;
  }

  private answered(): void {
    this.lastAnswerAt = Date.now();
    // Requests still waiting are counted from this answer on.
    if (this.inFlight > 1) this.waitingSince = this.lastAnswerAt;
  }

  private failed(reason: string): void {
    this.lastFailureAt = Date.now();
    this.lastFailure = reason;
  }
}

/** fetch's TypeError hides the socket's reason (ECONNREFUSED…) in its cause. */
function describe(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}
