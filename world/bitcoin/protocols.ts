/**
 * The world's token and staking activity (BRC-20 inscriptions, runes, Babylon-style staking).
 */
import type { Rng } from '../../lib/random.js';
import type { Economy } from './economy.js';
import type { Engine } from './engine.js';
import type { BitcoinLabels } from './labels.js';

export class Protocols {
  constructor(readonly engine: Engine, readonly economy: Economy, readonly rng: Rng, readonly seed: string) {}
  prepare(): void {}
  brc20(_t: number): void {}
  runes(_t: number): void {}
  staking(_t: number): void {}
  stakerAddresses(): string[] {
    return [];
  }
  fillLabels(_l: BitcoinLabels): void {}
}
