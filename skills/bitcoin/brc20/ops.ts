/**
 * BRC-20 operations as the reference indexers read them (the BRC-20 standard; OPI's rules):
 * an inscription whose content type is text/plain or application/json and whose body is a JSON
 * object `{ "p": "brc-20", "op": "deploy"|"mint"|"transfer", "tick": <4 bytes>, ... }` with every
 * number written as a string. Amounts are held as integers at 18 decimals (the standard's
 * maximum), so tickers with fewer decimals compare exactly.
 */
import type { Envelope } from './envelope.js';

export const BRC20_SCALE_DECIMALS = 18;
const SCALE = 10n ** BigInt(BRC20_SCALE_DECIMALS);
/** The standard's ceiling for max, lim and amt: uint64 max whole tokens. */
export const BRC20_MAX_AMOUNT = (2n ** 64n - 1n) * SCALE;

export type Brc20Op =
  | { readonly op: 'deploy'; readonly tick: string; readonly max: bigint; readonly lim: bigint; readonly dec: number }
  | { readonly op: 'mint' | 'transfer'; readonly tick: string; readonly amt: string };

/**
 * A decimal string as an integer at 18 decimals, if it has at most `decimals` decimals; null
 * when it is not a plain positive decimal ("1", "1.5", ".5"; no sign, exponent or spaces).
 */
export function scaledAmount(s: string, decimals = BRC20_SCALE_DECIMALS): bigint | null {
  if (!/^(\d+|\d*\.\d+)$/.test(s)) return null;
  const [whole, fraction = ''] = s.split('.');
  if (fraction.length > decimals) return null;
  return BigInt(whole || '0') * SCALE + BigInt((fraction || '0').padEnd(BRC20_SCALE_DECIMALS, '0'));
}

/** An 18-decimal integer as a decimal string, trailing zeros dropped. */
export function formatScaled(n: bigint): string {
  const neg = n < 0n;
  const v = neg ? -n : n;
  const whole = v / SCALE;
  const fraction = (v % SCALE).toString().padStart(BRC20_SCALE_DECIMALS, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The ticker as indexers key it: lower case; only 4-byte tickers (the original standard). */
export function normaliseTick(tick: unknown): string | null {
  if (typeof tick !== 'string') return null;
  const lower = tick.toLowerCase();
  return new TextEncoder().encode(lower).length === 4 ? lower : null;
}

/** The BRC-20 operation an envelope carries, or null. Deploy values are checked here; mint/transfer amounts need the ticker's decimals. */
export function brc20OpOf(env: Envelope): Brc20Op | null {
  if (env.flaws.length || env.contentEncoding || !env.body) return null;
  const type = env.contentType ?? '';
  if (!type.startsWith('text/plain') && !type.startsWith('application/json')) return null;
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(env.body));
  } catch {
    return null;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const o = json as Record<string, unknown>;
  if (o.p !== 'brc-20') return null;
  const tick = normaliseTick(o.tick);
  if (!tick) return null;
  if (o.op === 'deploy') {
    let dec = BRC20_SCALE_DECIMALS;
    if (o.dec !== undefined) {
      if (typeof o.dec !== 'string' || !/^\d+$/.test(o.dec)) return null;
      dec = Number(o.dec);
      if (dec > BRC20_SCALE_DECIMALS) return null;
    }
    if (typeof o.max !== 'string') return null;
    const max = scaledAmount(o.max, dec);
    if (max === null || max <= 0n || max > BRC20_MAX_AMOUNT) return null;
    let lim = max;
    if (o.lim !== undefined) {
      const l = typeof o.lim === 'string' ? scaledAmount(o.lim, dec) : null;
      if (l === null || l <= 0n || l > BRC20_MAX_AMOUNT) return null;
      lim = l;
    }
    return { op: 'deploy', tick, max, lim, dec };
  }
  if (o.op === 'mint' || o.op === 'transfer') {
    if (typeof o.amt !== 'string') return null;
    return { op: o.op, tick, amt: o.amt };
  }
  return null;
}
