/**
 * The labels file is read by key (tests, the detector evaluation), and its parts are declared by
 * the code that writes each: composed, they must keep the file's keys, in the file's order.
 */
import { describe, expect, it } from 'vitest';
import { emptyLabels } from '../../world/labels.js';

describe('world labels', () => {
  it('compose into the labels file shape, key for key and in order', () => {
    const labels = emptyLabels('base', 'seed');
    expect(Object.keys(labels)).toEqual([
      'chain', 'seed', 'contracts', 'wallets', 'distribution', 'regimes', 'tokens', 'snipes', 'sandwiches', 'arbitrages', 'rugs', 'moduleActors',
      'airdrops', 'drainers', 'drainerApprovals', 'vaults', 'lendingMarket', 'lendingPositions', 'liquidations', 'social', 'hooks', 'hookVictims', 'fixedYield',
    ]);
    expect(Object.keys(labels.wallets)).toEqual(['whales', 'smartMoney', 'snipers', 'sandwichers', 'arbitrageurs', 'exchanges', 'liquidityProviders', 'crossChainArbitrageurs', 'holders', 'treasuries', 'retail', 'issuers']);
    expect(labels.contracts).toEqual({ routers: [] });
    expect(labels.social).toEqual({ shillAccounts: [], shilled: [], posts: [] });
    expect(labels.fixedYield).toEqual({ markets: [], trades: [], redemptions: [], actors: null });
    expect(labels.lendingMarket).toBeNull();
  });

  it('are fresh for every world', () => {
    const a = emptyLabels('base', 'seed');
    a.tokens.push({ token: '0x0000000000000000000000000000000000000001', symbol: 'X', kind: 'listing', creator: '0x0000000000000000000000000000000000000002', pair: null, rug: false });
    a.wallets.whales.push('0x0000000000000000000000000000000000000003');
    const b = emptyLabels('base', 'seed');
    expect(b.tokens).toEqual([]);
    expect(b.wallets.whales).toEqual([]);
  });
});
