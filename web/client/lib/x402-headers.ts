/** x402's headers are base64 of JSON: decoded here to show what was asked, signed and settled. */

export const PAYMENT_REQUIRED = 'PAYMENT-REQUIRED';
/** The payment a v2 client sends; v1 clients (and the spec) name it X-PAYMENT. */
export const PAYMENT_HEADERS = ['PAYMENT-SIGNATURE', 'X-PAYMENT'] as const;
export const PAYMENT_RESPONSE_HEADERS = ['PAYMENT-RESPONSE', 'X-PAYMENT-RESPONSE'] as const;

export function decodeHeader(value: string | null): unknown {
  if (!value) return undefined;
  try {
    const bytes = Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
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
