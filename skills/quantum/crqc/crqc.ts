/**
 * crqc-proximity-benchmark: how close announced quantum hardware is to breaking RSA-2048 and
 * 256-bit elliptic curves (Bitcoin's and Ethereum's secp256k1), from a dated, sourced table of
 * published resource estimates and hardware (quantum/crqc/data.ts): the gap today and how it moved.
 */
import { z } from 'zod';
import { CRQC_METHODOLOGY, crqcBenchmark } from './engine.js';
import { CRQC_COMPILED_AT, HARDWARE, RESOURCE_ESTIMATES } from './data.js';
import { multiChainProvenanceShape } from '../../core/outputs.js';
import { defineSkill } from '../../core/registry.js';

const source = z.object({ title: z.string(), authors: z.string(), org: z.string(), year: z.number().int(), url: z.string().nullable(), reference: z.string() });
const figureKind = z.enum(['estimate', 'upper-bound']).nullable().describe('upper-bound: the source says "less than".');
const systemRef = z.object({ id: z.string(), name: z.string(), org: z.string(), announced: z.string(), physicalQubits: z.number().int(), twoQubitError: z.number().nullable() });
const target = z.enum(['RSA-2048', 'ECDLP-256']);
const gapPoint = z.object({ estimate: z.string(), published: z.string(), physicalQubits: z.number(), hardware: systemRef.nullable(), gap: z.number().nullable() });

export const crqcProximityBenchmarkSkill = defineSkill({
  id: 'crqc-proximity-benchmark',
  title: 'CRQC proximity benchmark',
  description: `How close quantum hardware is to a cryptographically relevant quantum computer: published resource estimates for breaking RSA-2048 and 256-bit elliptic-curve keys (secp256k1, as in Bitcoin and Ethereum) against announced machines (physical qubits, two-qubit error rates), each row with its source; the qubit gap and error-rate ratio today, and how the gap moved from the earliest to the latest estimate. Table compiled ${CRQC_COMPILED_AT}.`,
  tags: ['quantum', 'crqc', 'benchmark', 'shor', 'qubits', 'rsa', 'ecdsa', 'secp256k1', 'threat', 'timeline'],
  examples: ['How close are quantum computers to breaking bitcoin?', 'How many qubits does it take to break RSA-2048?'],
  input: z.strictObject({}),
  price: '1.00',
  toolName: 'crqc_proximity_benchmark',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...multiChainProvenanceShape,
    compiledAt: z.string().describe('When the table was compiled; later publications are not in it.'),
    headline: z.string(),
    today: z.object({ asOf: z.string(), largest: systemRef.nullable(), lowestError: systemRef.nullable() }).describe('The best announced hardware: most physical qubits, and lowest stated two-qubit error.'),
    comparisons: z.array(z.object({
      estimate: z.string(), target, published: z.string(),
      physicalQubits: z.number().nullable(), physicalQubitsKind: z.string().nullable(), runtimeHours: z.number().nullable(), assumedGateError: z.number().nullable(),
      qubitGap: z.number().nullable().describe('Estimate\'s physical qubits / today\'s largest machine\'s.'),
      errorRatio: z.number().nullable().describe('Lowest stated two-qubit error today / the error the estimate assumes (below 1: better than assumed).'),
      largestAtAssumedError: systemRef.nullable(),
      qubitGapAtAssumedError: z.number().nullable(),
    })),
    movements: z.array(z.object({
      target, earlier: gapPoint, latest: gapPoint,
      estimateShrink: z.number(), hardwareGrowth: z.number().nullable(), gapClosed: z.number().nullable(), note: z.string(),
    })).describe('Per target: earliest physical estimate against the hardware of its year, latest against today\'s.'),
    estimates: z.array(z.object({
      id: z.string(), target, published: z.string(), source,
      physicalQubits: z.number().nullable(), physicalQubitsKind: figureKind, logicalQubits: z.number().nullable(), toffoliGates: z.number().nullable(),
      runtimeHours: z.number().nullable(), runtimeKind: figureKind, assumedGateError: z.number().nullable(),
      codeCycleMicroseconds: z.number().nullable(), reactionTimeMicroseconds: z.number().nullable(), architecture: z.string(), note: z.string(),
    })),
    hardware: z.array(z.object({
      id: z.string(), name: z.string(), org: z.string(), modality: z.string(), announced: z.string(), physicalQubits: z.number().int(),
      twoQubitError: z.number().nullable(), twoQubitErrorNote: z.string().nullable(), source,
    })),
    caveats: z.array(z.string()),
  }),
  summarize: (r) => r.headline,
  async handler() {
    const b = crqcBenchmark();
    return {
      source: `crqc-data (shipped table compiled ${CRQC_COMPILED_AT}; ${RESOURCE_ESTIMATES.length} estimates, ${HARDWARE.length} machines, each sourced)`,
      asOf: { timestamp: new Date(`${CRQC_COMPILED_AT}T00:00:00Z`).toISOString() },
      methodology: CRQC_METHODOLOGY,
      compiledAt: b.compiledAt, headline: b.headline, today: b.today, comparisons: [...b.comparisons], movements: [...b.movements],
      estimates: [...RESOURCE_ESTIMATES], hardware: [...HARDWARE],
      caveats: [
        'Physical-qubit counts are not the whole gap: the estimates assume error-corrected operation at their stated error rate, millions of operations per second and hours to days of coherent run time, which no announced machine has shown at scale.',
        'Machines differ in what a qubit can do (connectivity, gate speed, error rates across the whole chip); the largest machine by count is not the best one at the assumed error rate.',
        'Estimates improve in steps with new algorithms and error correction; a new publication can move the gap more than a year of hardware.',
        `Rows are limited to figures stated in their sources as of ${CRQC_COMPILED_AT}; figures not stated are null.`,
      ],
    };
  },
});
