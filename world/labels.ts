/**
 * Ground truth written by the simulator: who is what and which blocks hold what. Only the
 * detector evaluation reads it; the analytics never do. Each part is declared by the code that
 * writes it (the opening, the cast, each market behaviour, each module); this file composes them.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { emptyCastLabels, type CastLabels } from './actors.js';
import type { LaunchpadLabels } from './behaviours/launchpad.js';
import { emptyArbitrageLabels, type ArbitrageLabels } from './behaviours/dex-arbitrage.js';
import { emptyListingLabels, type ListingLabels } from './behaviours/listings.js';
import { emptyRegimeLabels, type RegimeLabels } from './behaviours/regimes.js';
import { emptyRugLabels, type RugLabels } from './behaviours/rug-pulls.js';
import { emptySandwichLabels, type SandwichLabels } from './behaviours/sandwiches.js';
import { emptySnipeLabels, type SnipeLabels } from './behaviours/snipers.js';
import { emptyAirdropLabels, type AirdropLabels } from './modules/airdrops.js';
import { emptyDrainerLabels, type DrainerLabels } from './modules/drainers.js';
import { emptyFixedYieldLabels, type FixedYieldLabels } from './modules/fixed-yield.js';
import { emptyHookLabels, type HookLabels } from './modules/hooks.js';
import { emptyLendingLabels, type LendingLabels } from './modules/lending.js';
import { emptyModuleActorLabels, type ModuleActorLabels } from './modules/module.js';
import type { PredictionLabels } from './modules/prediction.js';
import { emptySocialLabels, type SocialLabels } from './modules/social.js';
import type { StockLabels } from './modules/stocks.js';
import { emptyVaultLabels, type VaultLabels } from './modules/vaults.js';
import { emptySetupLabels, type SetupLabels } from './setup.js';
import { emptySupplyLabels, type SupplyLabels } from './supply.js';

export type WorldLabels = { chain: string; seed: string }
  & SetupLabels & LaunchpadLabels & CastLabels & SupplyLabels
  & RegimeLabels & ListingLabels & SnipeLabels & SandwichLabels & ArbitrageLabels & RugLabels
  & ModuleActorLabels & AirdropLabels & DrainerLabels & VaultLabels & LendingLabels & SocialLabels & HookLabels & FixedYieldLabels
  // Polygon's only, added by its module (the other chains' labels are as they were).
  & PredictionLabels
  // The chains with stock tokens only, added by their module.
  & StockLabels;

export function emptyLabels(chain: string, seed: string): WorldLabels {
  // Keys in the order the labels file has always had them: readers go by key, and the file stays byte-stable.
  return {
    chain, seed,
    ...emptySetupLabels(), ...emptyCastLabels(), ...emptySupplyLabels(),
    ...emptyRegimeLabels(), ...emptyListingLabels(), ...emptySnipeLabels(), ...emptySandwichLabels(), ...emptyArbitrageLabels(), ...emptyRugLabels(),
    ...emptyModuleActorLabels(),
    ...emptyAirdropLabels(), ...emptyDrainerLabels(), ...emptyVaultLabels(), ...emptyLendingLabels(), ...emptySocialLabels(), ...emptyHookLabels(), ...emptyFixedYieldLabels(),
  };
}

export async function writeLabels(path: string, labels: readonly WorldLabels[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify({ writtenAt: new Date().toISOString(), chains: labels }, null, 1));
}
