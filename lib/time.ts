/** `work`'s value, or `fallback` once `ms` have passed (the work is not cancelled, only no longer waited for). */
export function within<T, F>(ms: number, work: Promise<T>, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([work, new Promise<F>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)))]).finally(() => clearTimeout(timer));
}
