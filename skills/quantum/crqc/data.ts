/**
 * The CRQC proximity table, shipped as data: published resource estimates for breaking RSA-2048
 * and 256-bit elliptic-curve discrete logarithms, and announced quantum hardware. Every row names
 * its source. Only figures stated in the source are written; a figure not stated there (or not
 * checked against it when the table was compiled) is null, never a guess.
 */

/** When the table was compiled (rows published after it are not in it). */
export const CRQC_COMPILED_AT = '2026-11-26';

export interface CrqcSource {
  readonly title: string;
  readonly authors: string;
  readonly org: string;
  readonly year: number;
  /** A stable link (arXiv, DOI); null where none was checked, and then `reference` says where it was published. */
  readonly url: string | null;
  readonly reference: string;
}

export type CrqcTarget = 'RSA-2048' | 'ECDLP-256';
/** `upper-bound`: the source states "less than" this figure. */
export type FigureKind = 'estimate' | 'upper-bound';

export interface ResourceEstimate {
  readonly id: string;
  readonly target: CrqcTarget;
  /** Month the estimate was first published (YYYY-MM). */
  readonly published: string;
  readonly source: CrqcSource;
  readonly physicalQubits: number | null;
  readonly physicalQubitsKind: FigureKind | null;
  readonly logicalQubits: number | null;
  readonly toffoliGates: number | null;
  readonly runtimeHours: number | null;
  readonly runtimeKind: FigureKind | null;
  /** The uniform physical gate error rate the estimate assumes; null when it assumes another error model. */
  readonly assumedGateError: number | null;
  readonly codeCycleMicroseconds: number | null;
  readonly reactionTimeMicroseconds: number | null;
  readonly architecture: string;
  readonly note: string;
}

export interface HardwareSystem {
  readonly id: string;
  readonly name: string;
  readonly org: string;
  readonly modality: 'superconducting' | 'trapped-ion' | 'neutral-atom';
  /** Month announced (YYYY-MM). */
  readonly announced: string;
  readonly physicalQubits: number;
  /** Two-qubit gate error rate as the maker or paper states it (null where none was stated with the announcement). */
  readonly twoQubitError: number | null;
  readonly twoQubitErrorNote: string | null;
  readonly source: CrqcSource;
}

const GIDNEY_EKERA_2019: CrqcSource = {
  title: 'How to factor 2048 bit RSA integers in 8 hours using 20 million noisy qubits',
  authors: 'Craig Gidney, Martin Ekerå', org: 'Google Quantum AI; KTH / Swedish NCSA', year: 2019,
  url: 'https://arxiv.org/abs/1905.09749', reference: 'arXiv:1905.09749; Quantum 5, 433 (2021)',
};
const GIDNEY_2025: CrqcSource = {
  title: 'How to factor 2048 bit RSA integers with less than a million noisy qubits',
  authors: 'Craig Gidney', org: 'Google Quantum AI', year: 2025,
  url: 'https://arxiv.org/abs/2505.15917', reference: 'arXiv:2505.15917 (May 2025)',
};
const ROETTELER_2017: CrqcSource = {
  title: 'Quantum resource estimates for computing elliptic curve discrete logarithms',
  authors: 'Martin Roetteler, Michael Naehrig, Krysta M. Svore, Kristin Lauter', org: 'Microsoft Research', year: 2017,
  url: 'https://arxiv.org/abs/1706.06752', reference: 'arXiv:1706.06752; ASIACRYPT 2017',
};
const HANER_2020: CrqcSource = {
  title: 'Improved quantum circuits for elliptic curve discrete logarithms',
  authors: 'Thomas Häner, Samuel Jaques, Michael Naehrig, Martin Roetteler, Mathias Soeken', org: 'Microsoft Research; University of Oxford', year: 2020,
  url: 'https://doi.org/10.1007/978-3-030-44223-1_23', reference: 'PQCrypto 2020, LNCS 12100',
};
const WEBBER_2022: CrqcSource = {
  title: 'The impact of hardware specifications on reaching quantum advantage in the fault tolerant regime',
  authors: 'Mark Webber, Vincent Elfving, Sebastian Weidt, Winfried K. Hensinger', org: 'University of Sussex; Universal Quantum; Qu & Co', year: 2022,
  url: 'https://arxiv.org/abs/2108.12371', reference: 'AVS Quantum Science 4, 013801 (2022); arXiv:2108.12371',
};
const LITINSKI_2023: CrqcSource = {
  title: 'How to compute a 256-bit elliptic curve private key with only 50 million Toffoli gates',
  authors: 'Daniel Litinski', org: 'PsiQuantum', year: 2023,
  url: 'https://arxiv.org/abs/2306.08585', reference: 'arXiv:2306.08585 (June 2023)',
};

const SURFACE_CODE_2D = 'Surface code on a square grid of qubits with nearest-neighbour connections';

export const RESOURCE_ESTIMATES: readonly ResourceEstimate[] = [
  {
    id: 'gidney-ekera-2019', target: 'RSA-2048', published: '2019-05', source: GIDNEY_EKERA_2019,
    physicalQubits: 20_000_000, physicalQubitsKind: 'estimate', logicalQubits: null, toffoliGates: null,
    runtimeHours: 8, runtimeKind: 'estimate', assumedGateError: 1e-3, codeCycleMicroseconds: 1, reactionTimeMicroseconds: 10,
    architecture: SURFACE_CODE_2D, note: 'The reference RSA-2048 estimate from 2019 to 2025.',
  },
  {
    id: 'gidney-2025', target: 'RSA-2048', published: '2025-05', source: GIDNEY_2025,
    physicalQubits: 1_000_000, physicalQubitsKind: 'upper-bound', logicalQubits: null, toffoliGates: null,
    runtimeHours: 168, runtimeKind: 'upper-bound', assumedGateError: 1e-3, codeCycleMicroseconds: 1, reactionTimeMicroseconds: 10,
    architecture: SURFACE_CODE_2D,
    note: 'Same hardware assumptions as Gidney & Ekerå 2019; fewer qubits from approximate residue arithmetic, yoked surface codes and magic state cultivation, at a longer run time (less than a week).',
  },
  {
    id: 'roetteler-2017', target: 'ECDLP-256', published: '2017-06', source: ROETTELER_2017,
    physicalQubits: null, physicalQubitsKind: null, logicalQubits: 2330, toffoliGates: null,
    runtimeHours: null, runtimeKind: null, assumedGateError: null, codeCycleMicroseconds: null, reactionTimeMicroseconds: null,
    architecture: 'Logical circuit only (Toffoli network); no physical layout',
    note: 'At most 9n + 2⌈log2 n⌉ + 10 logical qubits for an n-bit prime-field curve: 2,330 for n = 256. No physical-qubit figure.',
  },
  {
    id: 'haner-2020', target: 'ECDLP-256', published: '2020-04', source: HANER_2020,
    physicalQubits: null, physicalQubitsKind: null, logicalQubits: 2124, toffoliGates: null,
    runtimeHours: null, runtimeKind: null, assumedGateError: null, codeCycleMicroseconds: null, reactionTimeMicroseconds: null,
    architecture: 'Logical circuit only (Q# implementation); no physical layout',
    note: 'The fewest-qubit variant for a 256-bit prime-field curve; other variants trade qubits for depth and T gates. No physical-qubit figure.',
  },
  {
    id: 'webber-2022-1h', target: 'ECDLP-256', published: '2022-01', source: WEBBER_2022,
    physicalQubits: 317_000_000, physicalQubitsKind: 'estimate', logicalQubits: null, toffoliGates: null,
    runtimeHours: 1, runtimeKind: 'estimate', assumedGateError: 1e-3, codeCycleMicroseconds: 1, reactionTimeMicroseconds: 10,
    architecture: 'Surface code', note: "Bitcoin's secp256k1 key broken within one hour.",
  },
  {
    id: 'webber-2022-1d', target: 'ECDLP-256', published: '2022-01', source: WEBBER_2022,
    physicalQubits: 13_000_000, physicalQubitsKind: 'estimate', logicalQubits: null, toffoliGates: null,
    runtimeHours: 24, runtimeKind: 'estimate', assumedGateError: 1e-3, codeCycleMicroseconds: 1, reactionTimeMicroseconds: 10,
    architecture: 'Surface code', note: "Bitcoin's secp256k1 key broken within one day.",
  },
  {
    id: 'litinski-2023', target: 'ECDLP-256', published: '2023-06', source: LITINSKI_2023,
    physicalQubits: 6000 * 1152, physicalQubitsKind: 'estimate', logicalQubits: null, toffoliGates: 50_000_000,
    runtimeHours: 10 / 60, runtimeKind: 'estimate', assumedGateError: null, codeCycleMicroseconds: 10, reactionTimeMicroseconds: null,
    architecture: 'Photonic active-volume architecture: surface-code modules with non-local connections',
    note: '6,000 modules of 1,152 physical qubits, one key every 10 minutes at a 10 µs code cycle, operated at 10% of the error threshold (an error model of its own, not a uniform gate error). With strict 2D-local connectivity the same work takes more qubits and one key every 38 hours.',
  },
];

export const HARDWARE: readonly HardwareSystem[] = [
  {
    id: 'google-sycamore', name: 'Sycamore', org: 'Google Quantum AI', modality: 'superconducting', announced: '2019-10', physicalQubits: 53,
    twoQubitError: 0.0062, twoQubitErrorNote: 'Mean two-qubit (iSWAP-like) error with all gates running simultaneously; 0.36% in isolation.',
    source: { title: 'Quantum supremacy using a programmable superconducting processor', authors: 'Frank Arute et al.', org: 'Google AI Quantum and collaborators', year: 2019, url: 'https://doi.org/10.1038/s41586-019-1666-5', reference: 'Nature 574, 505 (2019)' },
  },
  {
    id: 'ibm-eagle', name: 'Eagle', org: 'IBM', modality: 'superconducting', announced: '2021-11', physicalQubits: 127, twoQubitError: null, twoQubitErrorNote: null,
    source: { title: 'IBM Eagle 127-qubit processor announcement', authors: 'IBM', org: 'IBM', year: 2021, url: null, reference: 'IBM Quantum Summit, November 2021' },
  },
  {
    id: 'ibm-osprey', name: 'Osprey', org: 'IBM', modality: 'superconducting', announced: '2022-11', physicalQubits: 433, twoQubitError: null, twoQubitErrorNote: null,
    source: { title: 'IBM Osprey 433-qubit processor announcement', authors: 'IBM', org: 'IBM', year: 2022, url: null, reference: 'IBM Quantum Summit, November 2022' },
  },
  {
    id: 'atom-computing-1180', name: 'Atom Computing 1,180-qubit system', org: 'Atom Computing', modality: 'neutral-atom', announced: '2023-10', physicalQubits: 1180, twoQubitError: null, twoQubitErrorNote: null,
    source: { title: 'Atom Computing first to exceed 1,000 qubits', authors: 'Atom Computing', org: 'Atom Computing', year: 2023, url: null, reference: 'Atom Computing announcement, October 2023 (1,225-site atom array holding 1,180 qubits)' },
  },
  {
    id: 'ibm-condor', name: 'Condor', org: 'IBM', modality: 'superconducting', announced: '2023-12', physicalQubits: 1121, twoQubitError: null, twoQubitErrorNote: null,
    source: { title: 'IBM Condor 1,121-qubit processor announcement', authors: 'IBM', org: 'IBM', year: 2023, url: null, reference: 'IBM Quantum Summit, December 2023' },
  },
  {
    id: 'quantinuum-h2-56', name: 'System Model H2 (56 qubits)', org: 'Quantinuum', modality: 'trapped-ion', announced: '2024-06', physicalQubits: 56, twoQubitError: null, twoQubitErrorNote: null,
    source: { title: 'Quantinuum H2 upgraded to 56 qubits', authors: 'Quantinuum', org: 'Quantinuum', year: 2024, url: null, reference: 'Quantinuum announcement, June 2024' },
  },
  {
    id: 'ibm-heron-r2', name: 'Heron r2', org: 'IBM', modality: 'superconducting', announced: '2024-11', physicalQubits: 156, twoQubitError: null, twoQubitErrorNote: null,
    source: { title: 'IBM Heron r2 156-qubit processor', authors: 'IBM', org: 'IBM', year: 2024, url: null, reference: 'IBM Quantum Developer Conference, November 2024' },
  },
  {
    id: 'google-willow', name: 'Willow', org: 'Google Quantum AI', modality: 'superconducting', announced: '2024-12', physicalQubits: 105,
    twoQubitError: 0.0033, twoQubitErrorNote: 'Mean CZ error with gates running simultaneously, from the Willow spec sheet.',
    source: { title: 'Willow spec sheet; Quantum error correction below the surface code threshold', authors: 'Google Quantum AI and collaborators', org: 'Google Quantum AI', year: 2024, url: 'https://arxiv.org/abs/2408.13687', reference: 'Willow spec sheet (December 2024); Nature (2025)' },
  },
  {
    id: 'quantinuum-helios', name: 'Helios', org: 'Quantinuum', modality: 'trapped-ion', announced: '2025-11', physicalQubits: 98,
    twoQubitError: 1 - 0.99921, twoQubitErrorNote: 'Two-qubit gate fidelity 99.921% across all qubit pairs (error 0.079%), as announced; later evaluated independently by Sandia National Laboratories.',
    source: { title: 'Helios launch', authors: 'Quantinuum', org: 'Quantinuum', year: 2025, url: null, reference: 'Quantinuum announcement, November 2025' },
  },
];
