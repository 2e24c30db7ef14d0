/** The skills of this part of the domain, as skills/index.ts lists them. */
import type { Skill } from '../registry.js';
import { bitcoinBridgeComparisonSkill } from './bridges.js';

export const BITCOIN_BRIDGE_SKILLS: readonly Skill<any>[] = [bitcoinBridgeComparisonSkill];
