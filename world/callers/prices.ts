/**
 * The prices the callers call and are graded on: a crypto major's reference path, a stock's
 * underlying path adjusted for splits (a share at the call is worth its split shares later, so a
 * split is no loss). Dividends are left out: a quarter's is a fraction of a percent.
 */
import { REFERENCE_ASSETS, type ReferencePaths } from '../reference.js';
import { UNDERLYINGS, type StockPaths } from '../stocks/underlyings.js';

export function callerPrices(reference: ReferencePaths, stocks: StockPaths): (asset: string, time: number) => number {
  return (asset, time) => {
    if (REFERENCE_ASSETS[asset]) return reference.priceUsd(asset, time);
    if (UNDERLYINGS[asset]) return stocks.priceUsd(asset, time) * stocks.splitFactor(asset, time);
    throw new Error(`no price path for ${asset}`);
  };
}
