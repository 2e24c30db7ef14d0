/** USD prices as strings ("0.40"), atomic USDC amounts as bigint (6 decimals). Never floats. */
export const USDC_DECIMALS = 6;
const USD_PRICE = /^\d+\.\d{2}$/;

export type UsdPrice = `${number}.${number}`;

export function assertUsdPrice(price: string): asserts price is UsdPrice {
  if (!USD_PRICE.test(price)) throw new Error(`price "${price}" must be dollars with two decimals, e.g. "0.40"`);
}

export function usdToAtomic(price: string): bigint {
  assertUsdPrice(price);
  const [whole, cents] = price.split('.') as [string, string];
  return BigInt(whole) * 1_000_000n + BigInt(cents) * 10_000n;
}

/** "$0.40", as prices are published. */
export function formatUsd(atomic: bigint): string {
  const cents = atomic / 10_000n;
  return `$${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}

/** "0.40": the decimal amount without the dollar sign. */
export function atomicToUsdString(atomic: bigint): string {
  return formatUsd(atomic).slice(1);
}

/** What a call paid from a token holder's quota (or any free purchase route) costs in USD; the price of the tool server's free tools. */
export const FREE_USD: UsdPrice = '0.00';

/** The bounds of one prepaid-credit top-up, in USD: enough for a few calls, not a treasury. */
export const CREDIT_TOP_UP_USD = { min: '1.00', max: '1000.00' } as const satisfies Record<string, UsdPrice>;
