/** The skills of this part of the domain, as skills/index.ts lists them. */
import type { Skill } from '../registry.js';
import { pqcWalletScanSkill } from './exposure.js';
import { pqcMigrationPlannerSkill } from './migration.js';
import { quantumPortfolioMonitorSkill } from './monitor.js';
import { pqcReadinessAssessmentSkill } from './readiness.js';

export const QUANTUM_EXPOSURE_SKILLS: readonly Skill<any>[] = [pqcWalletScanSkill, quantumPortfolioMonitorSkill, pqcReadinessAssessmentSkill, pqcMigrationPlannerSkill];
