/**
 * The world's public records as one plan, the same whenever it is asked for a seed and origin:
 * members of Congress and the stock trades they disclose (STOCK Act periodic transaction reports),
 * and federal contract awards to the listed companies. Deterministic per (seed, origin, stock
 * paths); `through(t)` is what the public could read at t: a trade once its disclosure date has
 * come, an award once its action date has.
 *
 * The labels are the ground truth, never the engines': which members are informed (they trade a
 * few days ahead of the stock's labelled events, earnings jumps and material awards, in the
 * direction of the move), which filings are late (disclosed more than FILING_DEADLINE_DAYS after
 * the transaction), and which awards are material. A material award is large against the
 * company's usual award and is placed where the stock paths already move: at the start of the
 * five days of its 30-day block in which the name beats the index most (no earnings inside), so the
 * award "moves" the stock without changing world/stocks/underlyings.ts.
 */
import { Rng } from '../../lib/random.js';
import { EQUITIES } from '../../lib/equities.js';
import { UNDERLYINGS, type StockEvent } from '../stocks/underlyings.js';

const DAY = 86_400;
/** The STOCK Act: a periodic transaction report is due within 45 days of the transaction. */
export const FILING_DEADLINE_DAYS = 45;
/** Trades are drawn from this long before the origin (so late filings exist from the start); awards from a year before (a company's usual award size needs a history). */
export const TRADES_BEFORE_ORIGIN_DAYS = 120;
export const AWARDS_BEFORE_ORIGIN_DAYS = 365;
/** The records run this far past the origin (nothing is drawn after it). */
export const RECORDS_HORIZON_DAYS = 180;
/** A material award's move: from the close before its action date, this many days on. */
export const AWARD_MOVE_DAYS = 5;
/** The US market's close as the world prices a date (21:00 UTC, the underlyings' earnings hour). */
export const CLOSE_HOUR_UTC = 21;

/** The amount bands of a periodic transaction report, as the stock-watcher files write them. */
export const AMOUNT_BANDS = [
  { label: '$1,001 - $15,000', low: 1_001, high: 15_000 },
  { label: '$15,001 - $50,000', low: 15_001, high: 50_000 },
  { label: '$50,001 - $100,000', low: 50_001, high: 100_000 },
  { label: '$100,001 - $250,000', low: 100_001, high: 250_000 },
  { label: '$250,001 - $500,000', low: 250_001, high: 500_000 },
  { label: '$500,001 - $1,000,000', low: 500_001, high: 1_000_000 },
  { label: '$1,000,001 - $5,000,000', low: 1_000_001, high: 5_000_000 },
] as const;

export type Chamber = 'house' | 'senate';
export type MemberRole = 'informed' | 'ordinary';
export type TradeSide = 'purchase' | 'sale_full' | 'sale_partial' | 'exchange';
export type TradeOwner = 'self' | 'spouse' | 'joint' | 'child';

export interface Member {
  /** As the filings name them (the House file prefixes "Hon."). */
  readonly name: string;
  readonly chamber: Chamber;
  readonly state: string;
  /** House seats only, as the House file writes it ("TX10"). */
  readonly district: string | null;
  readonly party: 'Democrat' | 'Republican' | 'Independent';
  readonly role: MemberRole;
  /** Files some reports past the deadline. */
  readonly lateFiler: boolean;
  /** The tickers an informed member has an edge on (empty for ordinary members). */
  readonly edgeTickers: readonly string[];
}

export interface CongressTrade {
  /** Unique within the plan: member, ticker, dates, side, band and owner. */
  readonly key: string;
  readonly member: string;
  readonly chamber: Chamber;
  readonly ticker: string;
  readonly assetDescription: string;
  readonly side: TradeSide;
  readonly band: (typeof AMOUNT_BANDS)[number]['label'];
  readonly owner: TradeOwner;
  /** ISO dates (YYYY-MM-DD) and their 00:00 UTC. */
  readonly transactionDate: string;
  readonly transactedAt: number;
  readonly disclosureDate: string;
  readonly disclosedAt: number;
  /** Whole days from transaction to disclosure; late when over FILING_DEADLINE_DAYS. */
  readonly delayDays: number;
  readonly late: boolean;
  /** The report (one per member and disclosure date) the trade was filed in. */
  readonly reportId: string;
  /** The labelled event an informed trade was placed ahead of (null: no edge). */
  readonly ahead: { readonly kind: 'earnings' | 'award'; readonly at: number; readonly move: number } | null;
}

export type AwardTypeCode = 'A' | 'B' | 'C' | 'D';

export interface ContractAward {
  readonly awardId: string;
  readonly internalId: number;
  /** The listed company's ticker; null for a contractor the world lists no stock of. */
  readonly ticker: string | null;
  readonly recipient: string;
  readonly agency: string;
  readonly subAgency: string;
  readonly fundingAgency: string;
  readonly awardType: AwardTypeCode;
  /** Obligated USD (negative for a de-obligation). */
  readonly amountUsd: number;
  readonly actionDate: string;
  readonly awardedAt: number;
  readonly endDate: string;
  readonly description: string;
  /** Funded through Foreign Military Sales. */
  readonly fms: boolean;
  readonly material: boolean;
  /** A material award's move: the name's log return over the index's (beta-weighted) from `fromAt` to `toAt`. */
  readonly move: { readonly fromAt: number; readonly toAt: number; readonly excessLog: number } | null;
}

export interface RecordsLabels {
  readonly informed: readonly string[];
  readonly lateFilers: readonly string[];
  /** Keys of the trades disclosed more than FILING_DEADLINE_DAYS after the transaction. */
  readonly lateFilings: readonly string[];
  readonly materialAwards: readonly string[];
}

export interface RecordsState {
  readonly through: number;
  readonly members: readonly Member[];
  /** Trades disclosed by `through`, oldest disclosure first. */
  readonly trades: readonly CongressTrade[];
  /** Awards with an action date by `through`, oldest first. */
  readonly awards: readonly ContractAward[];
  /** About what is visible at `through`. */
  readonly labels: RecordsLabels;
}

/** What the plan reads of the stocks' paths (world/stocks/underlyings.ts StockPaths). */
export interface StockPathsLike {
  priceUsd(symbol: string, time: number): number;
  splitFactor(symbol: string, time: number): number;
  events(from: number, to: number, symbol?: string): StockEvent[];
}

/** The listed companies' filings names (the assets members report) and how they contract with the government. */
interface GovernmentBusiness {
  readonly recipient: string;
  readonly agencies: readonly (readonly [agency: string, subAgency: string, prefix: string])[];
  /** Routine awards per 30 days, and their size range (log-uniform, the top 20 times the bottom: a routine award is at most about 4.5 times the median). */
  readonly perMonth: number;
  readonly usd: readonly [number, number];
  /** Chance a 30-day block holds a material award. */
  readonly materialChance: number;
  readonly fmsChance: number;
}

export const ASSET_DESCRIPTIONS: Readonly<Record<string, string>> = {
  AAPL: 'Apple Inc. - Common Stock', MSFT: 'Microsoft Corporation - Common Stock', NVDA: 'NVIDIA Corporation - Common Stock',
  TSLA: 'Tesla, Inc. - Common Stock', AMZN: 'Amazon.com, Inc. - Common Stock', META: 'Meta Platforms, Inc. - Class A Common Stock',
  GOOGL: 'Alphabet Inc. - Class A Common Stock', JPM: 'JPMorgan Chase & Co. - Common Stock', XOM: 'Exxon Mobil Corporation - Common Stock',
  JNJ: 'Johnson & Johnson - Common Stock', COIN: 'Coinbase Global, Inc. - Class A Common Stock', MSTR: 'MicroStrategy Incorporated - Class A Common Stock',
};

const DOD = 'Department of Defense';
const GOVERNMENT: Readonly<Record<string, GovernmentBusiness>> = {
  MSFT: { recipient: 'MICROSOFT CORPORATION', agencies: [[DOD, 'Defense Information Systems Agency', 'HC1028'], ['General Services Administration', 'Federal Acquisition Service', '47QTCA']], perMonth: 2, usd: [3e6, 60e6], materialChance: 0.4, fmsChance: 0 },
  AMZN: { recipient: 'AMAZON WEB SERVICES, INC.', agencies: [[DOD, 'Defense Information Systems Agency', 'HC1084'], ['National Aeronautics and Space Administration', 'NASA Shared Services Center', '80NSSC'], ['Department of Homeland Security', 'Office of Procurement Operations', '70RTAC']], perMonth: 2, usd: [4e6, 80e6], materialChance: 0.4, fmsChance: 0 },
  GOOGL: { recipient: 'GOOGLE PUBLIC SECTOR LLC', agencies: [[DOD, 'Department of the Air Force', 'FA8732'], ['General Services Administration', 'Federal Acquisition Service', '47QTCB']], perMonth: 1, usd: [1.5e6, 30e6], materialChance: 0.3, fmsChance: 0 },
  NVDA: { recipient: 'NVIDIA CORPORATION', agencies: [['Department of Energy', 'Department of Energy', '89233'], [DOD, 'Department of the Army', 'W52P1J']], perMonth: 0.8, usd: [2e6, 40e6], materialChance: 0.3, fmsChance: 0.1 },
  AAPL: { recipient: 'APPLE INC.', agencies: [['Department of Veterans Affairs', 'Veterans Affairs', '36C10B'], ['Department of Homeland Security', 'Office of Procurement Operations', '70RTAC']], perMonth: 0.8, usd: [4e5, 8e6], materialChance: 0.2, fmsChance: 0 },
  META: { recipient: 'META PLATFORMS, INC.', agencies: [[DOD, 'Department of the Army', 'W911QX']], perMonth: 0.8, usd: [1e5, 2e6], materialChance: 0.15, fmsChance: 0 },
  TSLA: { recipient: 'TESLA, INC.', agencies: [['General Services Administration', 'Federal Acquisition Service', '47QMCA'], ['Department of Energy', 'Department of Energy', '89303']], perMonth: 0.8, usd: [7.5e5, 15e6], materialChance: 0.2, fmsChance: 0 },
  JPM: { recipient: 'JPMORGAN CHASE BANK, NATIONAL ASSOCIATION', agencies: [['Department of the Treasury', 'Bureau of the Fiscal Service', '2032H5'], ['General Services Administration', 'Federal Acquisition Service', '47QSWA']], perMonth: 0.8, usd: [2e6, 40e6], materialChance: 0.3, fmsChance: 0 },
  XOM: { recipient: 'EXXONMOBIL OIL CORPORATION', agencies: [[DOD, 'Defense Logistics Agency', 'SPE600']], perMonth: 1.5, usd: [7.5e6, 150e6], materialChance: 0.4, fmsChance: 0.2 },
  JNJ: { recipient: 'JANSSEN PHARMACEUTICALS, INC.', agencies: [['Department of Health and Human Services', 'Office of the Assistant Secretary for Preparedness and Response', '75A501'], ['Department of Veterans Affairs', 'Veterans Affairs', '36C24E']], perMonth: 0.8, usd: [3e6, 60e6], materialChance: 0.3, fmsChance: 0 },
  COIN: { recipient: 'COINBASE, INC.', agencies: [['Department of the Treasury', 'Internal Revenue Service', '2032H8'], ['Department of Justice', 'U.S. Marshals Service', '15M102'], ['Department of Homeland Security', 'U.S. Secret Service', '70US09']], perMonth: 0.8, usd: [2.5e5, 5e6], materialChance: 0.2, fmsChance: 0 },
  MSTR: { recipient: 'MICROSTRATEGY SERVICES CORPORATION', agencies: [[DOD, 'Department of the Navy', 'N00039']], perMonth: 0.8, usd: [1.5e5, 3e6], materialChance: 0.15, fmsChance: 0 },
};
/** Contractors with no listed stock in the world: their awards are in the feed but move no ticker. */
const UNLISTED: readonly GovernmentBusiness[] = [
  { recipient: 'NORTHWIND DEFENSE SYSTEMS LLC', agencies: [[DOD, 'Department of the Navy', 'N00024']], perMonth: 1, usd: [5e6, 300e6], materialChance: 0, fmsChance: 0.3 },
  { recipient: 'CASCADE FEDERAL SERVICES INC', agencies: [['Department of Veterans Affairs', 'Veterans Affairs', '36C776']], perMonth: 1, usd: [2e6, 40e6], materialChance: 0, fmsChance: 0 },
];
/** What the awards buy, per company (others: services, hardware, supplies). */
const WORK: Readonly<Record<string, readonly string[]>> = {
  MSFT: ['CLOUD SERVICES', 'ENTERPRISE SOFTWARE LICENSES', 'IT SUPPORT SERVICES'], AMZN: ['CLOUD SERVICES', 'CLOUD STORAGE AND COMPUTE'], GOOGL: ['CLOUD SERVICES', 'WORKSPACE LICENSES'],
  NVDA: ['HIGH PERFORMANCE COMPUTING SYSTEMS', 'GPU ACCELERATORS'], XOM: ['BULK JET FUEL JP-8', 'MARINE DIESEL FUEL', 'AVIATION FUEL'], JNJ: ['PHARMACEUTICALS', 'VACCINE DOSES'],
  JPM: ['BANKING AND CARD SERVICES', 'LOCKBOX SERVICES'], COIN: ['DIGITAL ASSET CUSTODY SERVICES', 'BLOCKCHAIN ANALYTICS LICENSES'], TSLA: ['ELECTRIC VEHICLES', 'ENERGY STORAGE SYSTEMS'],
};
/** A material award is this many times the company's median routine award. */
const MATERIAL_MULTIPLE: readonly [number, number] = [25, 60];
const DEOBLIGATION_CHANCE = 0.03;

const FIRST = ['Alden', 'Beatrice', 'Calvin', 'Delia', 'Everett', 'Frances', 'Grady', 'Harriet', 'Irving', 'Josephine', 'Kendall', 'Lorraine', 'Marshall', 'Nadine', 'Orson', 'Priscilla', 'Quentin', 'Rosalind', 'Sterling', 'Theodora', 'Ulysses', 'Vivian', 'Wendell', 'Yvette', 'Ambrose', 'Clementine', 'Desmond', 'Eloise', 'Fletcher', 'Gwendolyn'];
const LAST = ['Ashcombe', 'Brightwater', 'Caldwell', 'Dunmore', 'Ellery', 'Fairbanks', 'Galloway', 'Hollister', 'Iverson', 'Jessup', 'Kingsley', 'Lockridge', 'Merriweather', 'Northcott', 'Oakhurst', 'Pembroke', 'Quimby', 'Redfield', 'Stanhope', 'Thorne', 'Underhill', 'Vance', 'Whitcombe', 'Yardley', 'Ashby', 'Blackwood', 'Crestwell', 'Davenport', 'Everly', 'Fenwick'];
const STATES = ['CA', 'TX', 'FL', 'NY', 'PA', 'IL', 'OH', 'GA', 'NC', 'MI', 'NJ', 'VA', 'WA', 'AZ', 'TN', 'MA', 'IN', 'MO', 'MD', 'CO'];

const HOUSE_SEATS = 28;
const SENATE_SEATS = 8;
const INFORMED = { house: 3, senate: 2 } as const;
const LATE_FILERS = 5;
/** Ordinary trades per member per 30 days; informed members trade without an edge too, at a sixth the rate. */
const TRADES_PER_MONTH = 2.5;
/** An informed member trades ahead of an earnings jump at least this big (log), with this chance. */
const INFORMED_MIN_JUMP = 0.05;
const INFORMED_TAKES = 0.9;
/** A late filer files this share of its reports late. */
const LATE_SHARE = 0.4;

export const dayStart = (t: number) => t - (((t % DAY) + DAY) % DAY);
export const isoDate = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
const weekday = (t: number) => {
  const d = new Date(t * 1000).getUTCDay();
  return d >= 1 && d <= 5;
};
/** The first weekday at or after the day of `t` (filings and awards are made on business days). */
const businessDay = (t: number) => {
  let d = dayStart(t);
  while (!weekday(d)) d += DAY;
  return d;
};
/** The close the world prices a date at. */
export const closeOf = (date: number) => dayStart(date) + CLOSE_HOUR_UTC * 3_600;

export class RecordsPlan {
  private drawn: { members: Member[]; trades: CongressTrade[]; awards: ContractAward[] } | null = null;

  constructor(readonly seed: string, readonly origin: number, private readonly paths: StockPathsLike) {}

  /** What the public could read at `t` (unix seconds). */
  through(t: number): RecordsState {
    const { members, trades, awards } = this.draw();
    const visible = trades.filter((x) => x.disclosedAt <= t);
    const awarded = awards.filter((a) => a.awardedAt <= t);
    return {
      through: t, members, trades: visible, awards: awarded,
      labels: {
        informed: members.filter((m) => m.role === 'informed').map((m) => m.name),
        lateFilers: members.filter((m) => m.lateFiler).map((m) => m.name),
        lateFilings: visible.filter((x) => x.late).map((x) => x.key),
        materialAwards: awarded.filter((a) => a.material).map((a) => a.awardId),
      },
    };
  }

  /** A name's split-adjusted price (continuous across a split). */
  adjustedUsd(ticker: string, t: number): number {
    return this.paths.priceUsd(ticker, t) * this.paths.splitFactor(ticker, t);
  }

  private draw() {
    if (this.drawn) return this.drawn;
    const rng = new Rng(`${this.seed}:records:${this.origin}`);
    const members = drawMembers(rng.fork('members'));
    const awards = this.drawAwards(rng.fork('awards'));
    const trades = this.drawTrades(rng.fork('trades'), members, awards);
    this.drawn = { members, trades, awards };
    return this.drawn;
  }

  private drawAwards(rng: Rng): ContractAward[] {
    const from = dayStart(this.origin) - AWARDS_BEFORE_ORIGIN_DAYS * DAY;
    const end = dayStart(this.origin) + RECORDS_HORIZON_DAYS * DAY;
    const out: Omit<ContractAward, 'internalId'>[] = [];
    const sequence = new Map<string, number>();
    const award = (r: Rng, ticker: string | null, g: GovernmentBusiness, at: number, amountUsd: number, material: boolean, move: ContractAward['move']) => {
      const [agency, subAgency, prefix] = r.pick(g.agencies);
      const fms = agency === DOD && r.chance(g.fmsChance);
      const year = new Date(at * 1000).getUTCFullYear() % 100;
      const n = (sequence.get(prefix) ?? r.int(10, 400)) + r.int(1, 9);
      sequence.set(prefix, n);
      const awardType = r.pick(['A', 'B', 'C', 'D'] as const);
      const awardId = `${prefix}${String(year).padStart(2, '0')}${awardType === 'D' ? 'C' : 'F'}${String(n).padStart(4, '0')}`;
      const what = amountUsd < 0 ? 'DEOBLIGATION OF UNUSED FUNDS' : r.pick(WORK[ticker ?? ''] ?? ['PROFESSIONAL SERVICES', 'HARDWARE AND MAINTENANCE', 'SUPPLIES']);
      out.push({
        awardId, ticker, recipient: g.recipient, agency, subAgency, fundingAgency: fms ? DOD : agency, awardType,
        amountUsd: Math.round(amountUsd * 100) / 100, actionDate: isoDate(at), awardedAt: at, endDate: isoDate(at + r.int(180, 1_800) * DAY),
        description: `${what}${fms ? ' - FOREIGN MILITARY SALES (FMS)' : ''}`, fms, material, move,
      });
    };
    const companies: [string | null, GovernmentBusiness][] = [...Object.entries(GOVERNMENT), ...UNLISTED.map((g) => [null, g] as [null, GovernmentBusiness])];
    for (const [ticker, g] of companies) {
      const r = rng.fork(g.recipient);
      // Routine awards: a Poisson count per 30 days, each on a business day within it.
      for (let block = from; block < end; block += 30 * DAY) {
        for (let k = r.poisson(g.perMonth); k > 0; k--) {
          const at = businessDay(block + r.int(0, 29) * DAY);
          if (at >= end) continue;
          const usd = r.logUniform(g.usd[0], g.usd[1]);
          award(r, ticker, g, at, r.chance(DEOBLIGATION_CHANCE) ? -usd * (0.05 + 0.25 * r.next()) : usd, false, null);
        }
      }
      if (!ticker) continue;
      // Material awards from the origin on, where the name beats the index most in a 30-day block.
      for (let block = dayStart(this.origin); block < end; block += 30 * DAY) {
        if (!r.chance(g.materialChance)) continue;
        const best = this.bestMoveIn(ticker, block, Math.min(end, block + 30 * DAY));
        if (!best) continue;
        const median = Math.sqrt(g.usd[0] * g.usd[1]);
        award(r, ticker, g, best.at, median * (MATERIAL_MULTIPLE[0] + r.next() * (MATERIAL_MULTIPLE[1] - MATERIAL_MULTIPLE[0])), true, best.move);
      }
    }
    return out.sort((a, b) => a.awardedAt - b.awardedAt || a.awardId.localeCompare(b.awardId)).map((a, i) => ({ ...a, internalId: 100_000_000 + i * 7 }));
  }

  /** The business day in [from, to) whose AWARD_MOVE_DAYS move beats the index most, with no earnings inside; null when none beats it. */
  private bestMoveIn(ticker: string, from: number, to: number): { at: number; move: NonNullable<ContractAward['move']> } | null {
    const beta = UNDERLYINGS[ticker]!.beta;
    let best: { at: number; move: NonNullable<ContractAward['move']> } | null = null;
    for (let day = from; day < to; day += DAY) {
      if (!weekday(day) || day < this.origin) continue;
      const fromAt = closeOf(day - DAY);
      const toAt = fromAt + AWARD_MOVE_DAYS * DAY;
      if (fromAt < this.origin || this.paths.events(fromAt, toAt + 1, ticker).some((e) => e.kind === 'earnings')) continue;
      const excessLog = Math.log(this.adjustedUsd(ticker, toAt) / this.adjustedUsd(ticker, fromAt)) - beta * Math.log(this.adjustedUsd('SPY', toAt) / this.adjustedUsd('SPY', fromAt));
      if (excessLog > 0 && (!best || excessLog > best.move.excessLog)) best = { at: day, move: { fromAt, toAt, excessLog } };
    }
    return best;
  }

  private drawTrades(rng: Rng, members: readonly Member[], awards: readonly ContractAward[]): CongressTrade[] {
    const from = dayStart(this.origin) - TRADES_BEFORE_ORIGIN_DAYS * DAY;
    const end = dayStart(this.origin) + RECORDS_HORIZON_DAYS * DAY;
    const tickers = Object.keys(ASSET_DESCRIPTIONS);
    // The labelled events an informed member can trade ahead of: big earnings jumps and material awards.
    const events: { ticker: string; kind: 'earnings' | 'award'; at: number; move: number }[] = [
      ...this.paths.events(this.origin, end).filter((e): e is Extract<StockEvent, { kind: 'earnings' }> => e.kind === 'earnings' && Math.abs(e.jump) >= INFORMED_MIN_JUMP).map((e) => ({ ticker: e.symbol, kind: 'earnings' as const, at: e.at, move: e.jump })),
      ...awards.filter((a) => a.material && a.ticker).map((a) => ({ ticker: a.ticker!, kind: 'award' as const, at: a.move!.fromAt, move: a.move!.excessLog })),
    ];
    const trades = new Map<string, CongressTrade>();
    for (const m of members) {
      const r = rng.fork(m.name);
      const add = (transactedAt: number, ticker: string, side: TradeSide, bandMax: number, ahead: CongressTrade['ahead']) => {
        const delay = m.lateFiler && r.chance(LATE_SHARE) ? r.int(FILING_DEADLINE_DAYS + 1, 150) : r.int(2, FILING_DEADLINE_DAYS);
        const disclosedAt = businessDay(transactedAt + delay * DAY);
        const delayDays = Math.round((disclosedAt - transactedAt) / DAY);
        const band = pickBand(r, bandMax);
        const owner = pickOwner(r);
        const transactionDate = isoDate(transactedAt);
        const disclosureDate = isoDate(disclosedAt);
        const key = `${m.name}|${ticker}|${transactionDate}|${disclosureDate}|${side}|${band}|${owner}`;
        if (trades.has(key)) return;
        trades.set(key, {
          key, member: m.name, chamber: m.chamber, ticker, assetDescription: ASSET_DESCRIPTIONS[ticker]!, side, band, owner,
          transactionDate, transactedAt, disclosureDate, disclosedAt, delayDays, late: delayDays > FILING_DEADLINE_DAYS,
          reportId: reportId(this.seed, m.name, disclosureDate), ahead,
        });
      };
      const rate = m.role === 'informed' ? TRADES_PER_MONTH / 6 : TRADES_PER_MONTH;
      for (let block = from; block < end; block += 30 * DAY) {
        for (let k = r.poisson(rate); k > 0; k--) {
          const at = businessDay(block + r.int(0, 29) * DAY);
          if (at >= end) continue;
          const roll = r.next();
          add(at, r.pick(tickers), roll < 0.55 ? 'purchase' : roll < 0.75 ? 'sale_partial' : roll < 0.97 ? 'sale_full' : 'exchange', 3, null);
        }
      }
      if (m.role !== 'informed') continue;
      for (const e of events) {
        if (!m.edgeTickers.includes(e.ticker) || !r.chance(INFORMED_TAKES)) continue;
        // A few business days before the close the move starts after, never on its day.
        let at = dayStart(e.at) - r.int(1, 6) * DAY;
        while (!weekday(at)) at -= DAY;
        if (closeOf(at) >= e.at) continue;
        add(at, e.ticker, e.move > 0 ? 'purchase' : r.chance(0.5) ? 'sale_full' : 'sale_partial', 5, { kind: e.kind, at: e.at, move: e.move });
      }
    }
    return [...trades.values()].sort((a, b) => a.disclosedAt - b.disclosedAt || a.key.localeCompare(b.key));
  }
}

function drawMembers(rng: Rng): Member[] {
  const names = new Set<string>();
  const seats: Chamber[] = [...Array<Chamber>(HOUSE_SEATS).fill('house'), ...Array<Chamber>(SENATE_SEATS).fill('senate')];
  const informedIdx = new Set<number>();
  while (informedIdx.size < INFORMED.house) informedIdx.add(rng.int(0, HOUSE_SEATS - 1));
  while (informedIdx.size < INFORMED.house + INFORMED.senate) informedIdx.add(rng.int(HOUSE_SEATS, seats.length - 1));
  const lateIdx = new Set<number>();
  while (lateIdx.size < LATE_FILERS) lateIdx.add(rng.int(0, seats.length - 1));
  const tickers = Object.keys(ASSET_DESCRIPTIONS);
  return seats.map((chamber, i) => {
    let name: string;
    do name = `${rng.pick(FIRST)} ${rng.pick(['A.', 'B.', 'J.', 'L.', 'M.', 'R.', 'T.', ''])} ${rng.pick(LAST)}`.replace('  ', ' ');
    while (names.has(name));
    names.add(name);
    const state = rng.pick(STATES);
    const informed = informedIdx.has(i);
    // An informed member's edge: the names of a sector or two it oversees.
    const sectors = new Set(Array.from({ length: 3 }, () => rng.pick(['tech', 'consumer', 'finance', 'energy', 'health'] as const)));
    return {
      name, chamber, state, district: chamber === 'house' ? `${state}${String(rng.int(1, 20)).padStart(2, '0')}` : null,
      party: rng.chance(0.48) ? 'Democrat' : rng.chance(0.95) ? 'Republican' : 'Independent',
      role: informed ? 'informed' : 'ordinary', lateFiler: lateIdx.has(i),
      edgeTickers: informed ? tickers.filter((t) => sectors.has(EQUITIES[t]!.sector as never)) : [],
    } satisfies Member;
  });
}

/** Most reports are in the smallest bands: each larger one at under half the chance of the one below, up to `max`. */
function pickBand(r: Rng, max: number): CongressTrade['band'] {
  let i = 0;
  while (i < max && r.chance(0.45)) i++;
  return AMOUNT_BANDS[i]!.label;
}

function pickOwner(r: Rng): TradeOwner {
  const x = r.next();
  return x < 0.45 ? 'self' : x < 0.75 ? 'spouse' : x < 0.95 ? 'joint' : 'child';
}

/** A report's id, the same for a member's trades disclosed the same day. */
function reportId(seed: string, member: string, date: string): string {
  const r = new Rng(`${seed}:report:${member}:${date}`);
  return String(r.int(20_000_000, 20_099_999));
}
