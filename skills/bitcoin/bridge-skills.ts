/** Skills of this domain that are built (the rest are still declared in skills/planned). */
import type { Skill } from '../registry.js';
import { bitcoinBridgeComparisonSkill } from './bridges.js';

export const BITCOIN_BRIDGE_SKILLS: readonly Skill<any>[] = [bitcoinBridgeComparisonSkill];
