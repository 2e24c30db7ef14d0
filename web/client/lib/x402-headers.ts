/** x402's headers, named once for the panel, which shows what was asked, signed and settled. */

export const PAYMENT_REQUIRED = 'PAYMENT-REQUIRED';
/** The payment a v2 client sends; v1 clients (and the spec) name it X-PAYMENT. */
export const PAYMENT_HEADERS = ['PAYMENT-SIGNATURE', 'X-PAYMENT'] as const;
export const PAYMENT_RESPONSE_HEADERS = ['PAYMENT-RESPONSE', 'X-PAYMENT-RESPONSE'] as const;

/** A header decoded by x402's own codec (`@x402/core/http`), or what could not be decoded, as it came. */
export function decoded<T>(decode: (value: string) => T, value: string): T | { undecodable: string } {
  try {
    return decode(value);
  } catch {
    return { undecodable: value };
  }
}

/** The first of `names` the headers carry, with its name. */
export function firstHeader(headers: Headers, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = headers.get(name);
    if (value) return { name, value };
  }
  return undefined;
}
