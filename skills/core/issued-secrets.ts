/**
 * Secrets Sibyl hands out (keys generated for a caller) are returned once and never kept. A skill
 * that answers with secrets names the fields that hold them (`secretFields` in the registry); each
 * answer's values there are remembered here, in this process only and for ISSUED_TTL_MS, so that
 * every place an answer may be persisted afterwards (the A2A task store, the report rooms'
 * checkpoints) can strip them by value, wherever and however deep they landed, without knowing
 * which skill ran. The values never leave process memory.
 */

/** How long an issued secret is recognised: far longer than a turn or a settlement takes. */
export const ISSUED_TTL_MS = 60 * 60_000;
/** What a stripped secret reads as. */
export const NOT_KEPT = '[secret returned once, not kept]';
/** A run this long of a secret's first characters counts as the secret (a bounded copy cut it short). */
const PIECE = 16;
/** Values shorter than this are not secrets worth recognising (they would match ordinary text). */
const MIN_SECRET = 8;

/** Issued secret → when it stops being recognised (insertion order is expiry order). */
const issued = new Map<string, number>();

/** The string values under any of `fields`, at any depth of the answer. */
export function valuesUnder(fields: readonly string[], answer: unknown): string[] {
  const found: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (fields.includes(k) && typeof x === 'string') found.push(x);
      else walk(x);
    }
  };
  walk(answer);
  return found;
}

/** Remembers secrets an answer is about to carry. A `0x` hex value is recognised without its prefix too. */
export function noteIssued(values: readonly string[], now = Date.now()): void {
  prune(now);
  for (const value of values) {
    const bare = /^0x[0-9a-fA-F]+$/.test(value) ? value.slice(2) : value;
    if (bare.length < MIN_SECRET) continue;
    issued.delete(bare);
    issued.set(bare, now + ISSUED_TTL_MS);
  }
}

/** The handler as is, or, for a skill whose answers carry secrets, one that notes them before answering. */
export function notingSecrets<I, C, A>(fields: readonly string[] | undefined, handler: (input: I, ctx: C) => Promise<A>): (input: I, ctx: C) => Promise<A> {
  if (!fields?.length) return handler;
  return async (input, ctx) => {
    const answer = await handler(input, ctx);
    noteIssued(valuesUnder(fields, answer));
    return answer;
  };
}

/** Whether the text holds an issued secret, or a piece of one PIECE characters long from its start. */
export function holdsIssued(text: string, now = Date.now()): boolean {
  prune(now);
  for (const secret of issued.keys()) if (text.includes(head(secret))) return true;
  return false;
}

/**
 * The text with every issued secret replaced by NOT_KEPT, a copy cut short included (any run
 * that starts with a secret's first PIECE characters and follows it).
 */
export function redactIssued(text: string, now = Date.now()): string {
  prune(now);
  let out = text;
  for (const secret of issued.keys()) {
    const start = head(secret);
    let at = out.indexOf(start);
    while (at !== -1) {
      let n = start.length;
      while (n < secret.length && out[at + n] === secret[n]) n++;
      out = `${out.slice(0, at)}${NOT_KEPT}${out.slice(at + n)}`;
      at = out.indexOf(start, at + NOT_KEPT.length);
    }
  }
  return out;
}

/** The same over bytes (a serialised value): ASCII secrets found and replaced, every other byte kept as it was. */
export function redactIssuedBytes(data: Uint8Array, now = Date.now()): Uint8Array {
  if (!issued.size) return data;
  // latin1 maps each byte to one character and back, so non-ASCII content (UTF-8, binary) survives untouched.
  const text = Buffer.from(data).toString('latin1');
  const redacted = redactIssued(text, now);
  return redacted === text ? data : new Uint8Array(Buffer.from(redacted, 'latin1'));
}

function head(secret: string): string {
  return secret.length > PIECE ? secret.slice(0, PIECE) : secret;
}

function prune(now: number): void {
  for (const [secret, until] of issued) {
    if (until > now) break;
    issued.delete(secret);
  }
}
