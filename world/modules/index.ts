/**
 * The protocols the world writes beside its market, in the order they act in a block. Each is a
 * `WorldModuleFactory` (module.ts); a factory returns undefined on chains its protocol is not on.
 */
import type { WorldModuleFactory } from './module.js';
import { drainersModule } from './drainers.js';
import { airdropsModule } from './airdrops.js';
import { vaultsModule } from './vaults.js';
import { socialModule } from './social.js';
import { lendingModule } from './lending.js';
import { hooksModule } from './hooks.js';
import { fixedYieldModule } from './fixed-yield.js';
import { stocksModule } from './stocks.js';
import { predictionModule } from './prediction.js';

export const WORLD_MODULES: readonly WorldModuleFactory[] = [drainersModule, airdropsModule, vaultsModule, socialModule, lendingModule, hooksModule, fixedYieldModule, stocksModule, predictionModule];
