/** The errno-style code anywhere in an error's cause chain: viem wraps fetch's TypeError, which wraps the socket's error. */
export function errorCode(err: unknown): string | undefined {
  let e = err as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined;
  for (let depth = 0; e && depth < 6; depth++, e = e.cause as typeof e) {
    if (typeof e.code === 'string') return e.code;
    // A connection tried on several addresses keeps each attempt's error in a list.
    const inner = e.errors?.[0] as { code?: unknown } | undefined;
    if (typeof inner?.code === 'string') return inner.code;
  }
  return undefined;
}

/** Connection errors that say the other side is not there at all (refused, no such host), not merely late or busy. */
const ABSENT_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_NONAME']);

export function isAbsent(err: unknown): boolean {
  const code = errorCode(err);
  return code !== undefined && ABSENT_CODES.has(code);
}
