/**
 * The prediction settings: each provider is read at its URLs when all of them are set, else from
 * the embedded venue; a partial Polymarket, or URLs beside PREDICTION=off, stop start-up naming
 * the settings.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';

const GAMMA = 'https://gamma-api.polymarket.com';
const CLOB = 'https://clob.polymarket.com/';
const DATA = 'https://data-api.polymarket.com';
const KALSHI = 'https://api.elections.kalshi.com/trade-api/v2';

describe('the prediction settings', () => {
  it('default to the embedded venues of the world\'s seed', () => {
    expect(loadConfig({ WORLD_SEED: 'p' }).prediction).toEqual({ seed: 'p', polymarket: undefined, kalshi: undefined });
  });

  it('point a provider at its URLs when all of them are set, the other staying embedded', () => {
    expect(loadConfig({ POLYMARKET_GAMMA_URL: GAMMA, POLYMARKET_CLOB_URL: CLOB, POLYMARKET_DATA_URL: DATA }).prediction).toMatchObject({
      polymarket: { gamma: GAMMA, clob: 'https://clob.polymarket.com', data: DATA }, kalshi: undefined,
    });
    expect(loadConfig({ KALSHI_API_URL: KALSHI }).prediction).toMatchObject({ polymarket: undefined, kalshi: KALSHI });
  });

  it('refuse a partial Polymarket, naming the missing settings', () => {
    const partial = () => loadConfig({ POLYMARKET_GAMMA_URL: GAMMA, KALSHI_API_URL: KALSHI });
    expect(partial).toThrow(ConfigError);
    expect(partial).toThrow(/^POLYMARKET_CLOB_URL, POLYMARKET_DATA_URL: required with POLYMARKET_GAMMA_URL/);
    expect(() => loadConfig({ POLYMARKET_CLOB_URL: CLOB, POLYMARKET_DATA_URL: DATA })).toThrow(/^POLYMARKET_GAMMA_URL: required with POLYMARKET_CLOB_URL, POLYMARKET_DATA_URL/);
  });

  it('turn the venues off with PREDICTION=off, and refuse URLs beside it', () => {
    expect(loadConfig({ PREDICTION: 'off' }).prediction).toBeUndefined();
    expect(() => loadConfig({ PREDICTION: 'off', KALSHI_API_URL: KALSHI })).toThrow(/^KALSHI_API_URL: set, but PREDICTION=off/);
    expect(() => loadConfig({ KALSHI_API_URL: 'ftp://kalshi.example' })).toThrow(/^KALSHI_API_URL:/);
  });
});
