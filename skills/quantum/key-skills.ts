/** Skills of this domain that are built (the rest are still declared in skills/planned). */
import type { Skill } from '../registry.js';

export const QUANTUM_KEY_SKILLS: readonly Skill<any>[] = [];
