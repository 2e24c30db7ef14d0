/** Skills of this domain that are built (the rest are still declared in skills/planned). */
import type { Skill } from '../registry.js';
import { bitcoinCycleTool } from './cycle.js';
import { bitcoinMempoolSkill } from './mempool.js';
import { bitcoinOnchainSkill } from './onchain.js';

export const BITCOIN_CHAIN_SKILLS: readonly Skill<any>[] = [bitcoinMempoolSkill, bitcoinOnchainSkill, bitcoinCycleTool];
