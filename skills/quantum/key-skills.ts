/** The skills of this part of the domain, as skills/index.ts lists them. */
import type { Skill } from '../registry.js';
import { crqcProximityBenchmarkSkill } from './crqc.js';
import { quantumEncryptionKeySkill, quantumSigningKeySkill } from './keys.js';
import { quantumHardwareQrngSkill } from './qrng.js';
import { quantumWalletGenerationSkill } from './wallet.js';

export const QUANTUM_KEY_SKILLS: readonly Skill<any>[] = [quantumEncryptionKeySkill, quantumSigningKeySkill, quantumWalletGenerationSkill, quantumHardwareQrngSkill, crqcProximityBenchmarkSkill];
