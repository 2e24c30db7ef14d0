/** Skills of this domain that are built (the rest are still declared in skills/planned). */
import type { Skill } from '../registry.js';
import { brc20AnalyticsSkill } from './brc20.js';
import { runesAnalyticsSkill } from './runes.js';
import { bitcoinStakingSkill } from './staking.js';

export const BITCOIN_TOKEN_SKILLS: readonly Skill<any>[] = [brc20AnalyticsSkill, runesAnalyticsSkill, bitcoinStakingSkill];
