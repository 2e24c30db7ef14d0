/**
 * A time limit on one store command that a stalled event loop cannot trip. A plain timer fires
 * first when the loop comes back from a stall (timers run before sockets are read), so a reply
 * that arrived during the stall would be reported as a timeout; a timer that fires late gives
 * the reply another full period instead. The limit therefore counts time the process could
 * have read the answer: a Redis that is really gone still fails the command, as a rejected
 * promise (StoreTimeoutError), never as an exception elsewhere.
 */
export class StoreTimeoutError extends Error {
  override readonly name = 'StoreTimeoutError';
}

/** A timer this much late means the loop was held, not that the answer is slow. */
const STALL_MS = 250;

/**
 * `work`'s outcome (its rejection too), or `onExpired()`'s (what it returns, or throws) once `ms` of
 * such time have passed. The store's commands and the readiness probes (server/probe.ts) share it.
 */
export function stallAwareDeadline<T, E>(work: Promise<T>, ms: number, onExpired: () => E): Promise<T | E> {
  return new Promise<T | E>((resolve, reject) => {
    let due = Date.now() + ms;
    let timer: NodeJS.Timeout;
    const check = () => {
      const now = Date.now();
      if (now - due > STALL_MS) {
        due = now + ms;
        timer = setTimeout(check, ms);
        timer.unref();
        return;
      }
      try {
        resolve(onExpired());
      } catch (err) {
        reject(err);
      }
    };
    timer = setTimeout(check, ms);
    timer.unref();
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  if (!(ms > 0)) return work;
  return stallAwareDeadline(work, ms, () => {
    work.catch(() => {}); // settles later, unobserved
    throw new StoreTimeoutError(`store: no answer to ${what} within ${ms} ms`);
  });
}
