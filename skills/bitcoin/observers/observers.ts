/**
 * The token and staking plug-ins of the Bitcoin index: the lead passes `bitcoinObservers()` to
 * the indexer, and skills find each one again by name (`ctx.bitcoin.index.observer(name)`).
 */
import type { BitcoinTxObserver } from '../../../chain/bitcoin.js';
import { Brc20Index, BRC20_OBSERVER } from '../brc20/indexer.js';
import { RunesIndex, RUNES_OBSERVER } from '../runes/indexer.js';
import { StakingIndex, STAKING_OBSERVER } from '../staking/indexer.js';

export { BRC20_OBSERVER, RUNES_OBSERVER, STAKING_OBSERVER };
export type { Brc20Index, RunesIndex, StakingIndex };

/** Fresh observers (one set per index: they hold the state of the blocks they are shown). */
export function bitcoinObservers(): BitcoinTxObserver[] {
  return [new Brc20Index(), new RunesIndex(), new StakingIndex()];
}
