/** Skills of this domain that are built (the rest are still declared in skills/planned). */
import type { Skill } from '../registry.js';

export const BITCOIN_CHAIN_SKILLS: readonly Skill<any>[] = [];
