import { describe, expect, it } from 'vitest';
import { CRQC_COMPILED_AT, HARDWARE, RESOURCE_ESTIMATES } from './data.js';
import { crqcBenchmark, hardwareAsOf } from './engine.js';

const month = /^\d{4}-(0[1-9]|1[0-2])$/;

describe('CRQC table', () => {
  it('is dated, and every row names its source', () => {
    expect(CRQC_COMPILED_AT).toMatch(/^\d{4}-\d\d-\d\d$/);
    for (const row of [...RESOURCE_ESTIMATES.map((e) => ({ id: e.id, when: e.published, source: e.source })), ...HARDWARE.map((h) => ({ id: h.id, when: h.announced, source: h.source }))]) {
      expect(row.when, row.id).toMatch(month);
      expect(row.when <= CRQC_COMPILED_AT.slice(0, 7), row.id).toBe(true);
      const s = row.source;
      for (const f of [s.title, s.authors, s.org, s.reference]) expect(f.trim().length, row.id).toBeGreaterThan(2);
      expect(s.year, row.id).toBe(Number(row.when.slice(0, 4)));
      if (s.url !== null) expect(s.url, row.id).toMatch(/^https:\/\/(arxiv\.org\/abs\/\d{4}\.\d{4,5}|doi\.org\/10\.)/);
    }
    expect(new Set([...RESOURCE_ESTIMATES, ...HARDWARE].map((r) => r.id)).size).toBe(RESOURCE_ESTIMATES.length + HARDWARE.length);
  });

  it('figures are positive or null, error rates are probabilities, and a figure kind goes with its figure', () => {
    for (const e of RESOURCE_ESTIMATES) {
      for (const v of [e.physicalQubits, e.logicalQubits, e.toffoliGates, e.runtimeHours, e.codeCycleMicroseconds, e.reactionTimeMicroseconds]) if (v !== null) expect(v, e.id).toBeGreaterThan(0);
      if (e.assumedGateError !== null) expect(e.assumedGateError).toBeLessThan(0.05);
      expect(e.physicalQubitsKind === null, e.id).toBe(e.physicalQubits === null);
      expect(e.runtimeKind === null, e.id).toBe(e.runtimeHours === null);
    }
    for (const h of HARDWARE) {
      expect(Number.isInteger(h.physicalQubits) && h.physicalQubits > 0).toBe(true);
      if (h.twoQubitError !== null) expect(h.twoQubitError > 0 && h.twoQubitError < 0.05, h.id).toBe(true);
      expect(h.twoQubitErrorNote === null, h.id).toBe(h.twoQubitError === null);
    }
  });

  it('holds the figures as the papers state them', () => {
    const byId = Object.fromEntries(RESOURCE_ESTIMATES.map((e) => [e.id, e]));
    // Titles carry their own figures.
    expect(byId['gidney-ekera-2019']!.source.title).toContain(`${byId['gidney-ekera-2019']!.physicalQubits! / 1e6} million noisy qubits`);
    expect(byId['gidney-ekera-2019']!.source.title).toContain(`${byId['gidney-ekera-2019']!.runtimeHours} hours`);
    expect(byId['gidney-2025']!.source.title).toContain('less than a million');
    expect(byId['gidney-2025']!.physicalQubitsKind).toBe('upper-bound');
    expect(byId['litinski-2023']!.source.title).toContain(`${byId['litinski-2023']!.toffoliGates! / 1e6} million Toffoli`);
    // Roetteler et al.: at most 9n + 2⌈log2 n⌉ + 10 qubits, n = 256.
    expect(byId['roetteler-2017']!.logicalQubits).toBe(9 * 256 + 2 * Math.ceil(Math.log2(256)) + 10);
    // Webber et al.: faster takes more qubits.
    expect(byId['webber-2022-1h']!.physicalQubits!).toBeGreaterThan(byId['webber-2022-1d']!.physicalQubits!);
  });
});

describe('CRQC comparison', () => {
  const b = crqcBenchmark();
  const largest = Math.max(...HARDWARE.map((h) => h.physicalQubits));

  it('today\'s hardware is the table\'s largest machine and its lowest stated error', () => {
    expect(b.today.largest!.physicalQubits).toBe(largest);
    expect(b.today.lowestError!.twoQubitError).toBe(Math.min(...HARDWARE.flatMap((h) => (h.twoQubitError === null ? [] : [h.twoQubitError]))));
  });

  it('qubit gaps are the estimate over the largest machine, to three figures', () => {
    for (const c of b.comparisons) {
      const e = RESOURCE_ESTIMATES.find((x) => x.id === c.estimate)!;
      if (e.physicalQubits === null) expect(c.qubitGap).toBeNull();
      else expect(Math.abs(c.qubitGap! - e.physicalQubits / largest) / (e.physicalQubits / largest)).toBeLessThan(0.005);
    }
    // Gidney 2025 against the 1,180-qubit machine: 847×.
    expect(b.comparisons.find((c) => c.estimate === 'gidney-2025')!.qubitGap).toBe(847);
  });

  it('the gap at the assumed error counts only machines that meet it', () => {
    const c = b.comparisons.find((x) => x.estimate === 'gidney-2025')!;
    const meeting = HARDWARE.filter((h) => h.twoQubitError !== null && h.twoQubitError <= 1e-3);
    expect(c.largestAtAssumedError!.physicalQubits).toBe(Math.max(...meeting.map((h) => h.physicalQubits)));
    expect(c.qubitGapAtAssumedError).toBe(Number((1e6 / c.largestAtAssumedError!.physicalQubits).toPrecision(3)));
    expect(c.errorRatio).toBeLessThan(1);
    // An estimate with its own error model has no ratio.
    expect(b.comparisons.find((x) => x.estimate === 'litinski-2023')!.errorRatio).toBeNull();
  });

  it('RSA-2048: 2019\'s estimate against 2019\'s hardware, 2025\'s against today\'s', () => {
    const m = b.movements.find((x) => x.target === 'RSA-2048')!;
    expect(m.earlier).toMatchObject({ estimate: 'gidney-ekera-2019', hardware: { id: 'google-sycamore', physicalQubits: 53 } });
    expect(m.earlier.gap).toBe(Number((20e6 / 53).toPrecision(3)));
    expect(m.latest.estimate).toBe('gidney-2025');
    expect(m.estimateShrink).toBe(20);
    expect(m.gapClosed).toBe(Number((m.earlier.gap! / m.latest.gap!).toPrecision(3)));
    expect(m.note).toMatch(/same hardware assumptions/);
  });

  it('ECDLP-256: the fewest-qubit figure stands for a paper, and a change of architecture is said', () => {
    const m = b.movements.find((x) => x.target === 'ECDLP-256')!;
    expect(m.earlier.estimate).toBe('webber-2022-1d');
    expect(m.earlier.hardware!.announced <= '2022-12').toBe(true);
    expect(m.latest.estimate).toBe('litinski-2023');
    expect(m.note).toMatch(/different hardware/);
  });

  it('hardware as of a month sees only what was announced by then', () => {
    expect(hardwareAsOf('2019-12').largest!.id).toBe('google-sycamore');
    expect(hardwareAsOf('2018-12').largest).toBeNull();
    expect(b.headline).toMatch(/RSA-2048: the latest estimate needs under 1,000,000 physical qubits, 847× today's largest machine/);
  });
});
