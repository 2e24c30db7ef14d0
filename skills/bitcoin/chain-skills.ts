/** The skills of this part of the domain, as skills/index.ts lists them. */
import type { Skill } from '../registry.js';
import { bitcoinCycleTool } from './cycle.js';
import { bitcoinMempoolSkill } from './mempool.js';
import { bitcoinOnchainSkill } from './onchain.js';

export const BITCOIN_CHAIN_SKILLS: readonly Skill<any>[] = [bitcoinMempoolSkill, bitcoinOnchainSkill, bitcoinCycleTool];
