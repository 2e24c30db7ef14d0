/**
 * A value per key, made once and kept: for documents built from what does not change while the
 * process runs (the registry, the payment terms) and the origin they are served at. At most
 * `max` keys are kept, the oldest dropped first: a Host header can vary the origin.
 */
export function boundedMemo<K, V>(max: number, make: (key: K) => V): (key: K) => V {
  const kept = new Map<K, V>();
  return (key) => {
    if (kept.has(key)) return kept.get(key)!;
    const value = make(key);
    if (kept.size >= max) kept.delete(kept.keys().next().value!);
    kept.set(key, value);
    return value;
  };
}

/** Origins a discovery document is kept for: one, unless PUBLIC_URL is unset and Host headers vary. */
export const ORIGINS_KEPT = 16;
