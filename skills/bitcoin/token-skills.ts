/** The skills of this part of the domain, as skills/index.ts lists them. */
import type { Skill } from '../registry.js';
import { brc20AnalyticsSkill } from './brc20.js';
import { runesAnalyticsSkill } from './runes.js';
import { bitcoinStakingSkill } from './staking.js';

export const BITCOIN_TOKEN_SKILLS: readonly Skill<any>[] = [brc20AnalyticsSkill, runesAnalyticsSkill, bitcoinStakingSkill];
