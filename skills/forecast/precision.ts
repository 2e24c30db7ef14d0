/**
 * Numbers as forecasts publish them. Prices keep significant digits, not decimals, so a token at
 * 1.234e-9 USD is not rounded to 0; percentages keep decimals.
 */
export const PRICE_SIGNIFICANT_DIGITS = 8;

export function price(n: number): number {
  return Number(n.toPrecision(PRICE_SIGNIFICANT_DIGITS));
}

export function percent(n: number, decimals = 4): number {
  const f = 10 ** decimals;
  return Math.round(n * f) / f;
}
