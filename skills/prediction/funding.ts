/**
 * When and how a prediction-market account was first funded on Polygon, where Polymarket settles:
 * the first USDC transfer it received, as the chain's index holds it (the indexer stores every
 * ERC-20 Transfer), so an account's age is what the chain says, never what a venue or a label
 * says. The engines take the `AccountFunding` interface; `IndexedFunding` is the chain's.
 */
import { formatUnits, type Address, type Hash } from 'viem';
import { CHAINS } from '../../chain/chains.js';
import type { ChainRuntime } from '../../chain/runtime.js';
import { IndexReader } from '../../indexer/reader.js';
import type { Row } from '../../indexer/rows.js';
import type { Store } from '../../store/store.js';
import { USDC_DECIMALS } from '../core/money.js';

export interface FirstFunding {
  /** Unix seconds of the block. */
  readonly time: number;
  readonly block: number;
  readonly tx: Hash;
  readonly amountUsd: number;
  /** Who sent it (the zero address: minted to the account). */
  readonly from: Address;
  readonly token: Address;
  /**
   * It lies in the first FUNDING_HISTORY_MARGIN_SECONDS of the history read: the account may have
   * been funded before that history began, so its age is only a lower bound.
   */
  readonly censored: boolean;
}

export type FundingReading =
  | { readonly status: 'funded'; readonly funding: FirstFunding }
  /** The chain was read and shows no USDC received in the history read: no age can be given. */
  | { readonly status: 'none'; readonly reason: string }
  /** The chain could not be read (not connected, not indexed): reported as such, never scored as fresh. */
  | { readonly status: 'unreadable'; readonly reason: string };

/** What a funding answer read, for provenance. */
export interface FundingProvenance {
  readonly chain: string;
  readonly chainId: number;
  readonly token: Address;
  /** `index:polygon@<block>`, or null when nothing could be read. */
  readonly source: string | null;
  /** The indexed history read: its first and last block times (ISO), null when unread. */
  readonly from: string | null;
  readonly through: string | null;
  readonly methodology: string;
  readonly unreadable?: string;
}

export interface AccountFunding {
  firstFunding(address: string): Promise<FundingReading>;
  provenance(): Promise<FundingProvenance>;
}

export const FUNDING_CHAIN = 'polygon' as const;
/** A first funding this close to the start of the history read may not be the first: its age is a lower bound. */
export const FUNDING_HISTORY_MARGIN_SECONDS = 86_400;
export const FUNDING_METHODOLOGY = `first-funding/v1 (an account's first funding is the earliest USDC Transfer to it in the ${CHAINS[FUNDING_CHAIN].title} index, with its block time, amount and sender; the zero address as sender means minted to it; one within ${FUNDING_HISTORY_MARGIN_SECONDS / 3_600} h of the index's first block is censored: the account may be older than the history read)`;
/** Blocks below the last read that are read again on the next pass, so a reorganised tip is not kept. */
const REORG_SLACK = 64;

interface FirstSeen {
  /** The last block whose transfers are in `first` (-1: none read). */
  through: number;
  first: Map<string, Omit<FirstFunding, 'censored'>>;
  /** The pass in flight, so concurrent requests share it. */
  pass?: Promise<void>;
}

/** One table per store and chain: requests share it, and each pass reads only the blocks indexed since the last. */
const tables = new WeakMap<object, Map<number, FirstSeen>>();

export class IndexedFunding implements AccountFunding {
  private readonly token = CHAINS[FUNDING_CHAIN].usdc.toLowerCase() as Address;
  private readonly chainId = CHAINS[FUNDING_CHAIN].chainId;

  constructor(
    private readonly store: Store,
    /** The chains this deployment reads: only whether Polygon is among them is asked. */
    private readonly chains: Pick<ChainRuntime, 'list'>,
  ) {}

  async firstFunding(address: string): Promise<FundingReading> {
    const read = await this.read();
    if ('unreadable' in read) return { status: 'unreadable', reason: read.unreadable };
    const found = read.table.first.get(address.toLowerCase());
    if (found) return { status: 'funded', funding: { ...found, censored: read.historyStart === null || found.time < read.historyStart + FUNDING_HISTORY_MARGIN_SECONDS } };
    return { status: 'none', reason: `no USDC transfer to it in the ${FUNDING_CHAIN} index (through block ${read.table.through})` };
  }

  async provenance(): Promise<FundingProvenance> {
    const head = { chain: FUNDING_CHAIN, chainId: this.chainId, token: CHAINS[FUNDING_CHAIN].usdc, methodology: FUNDING_METHODOLOGY };
    const read = await this.read();
    if ('unreadable' in read) return { ...head, source: null, from: null, through: null, unreadable: read.unreadable };
    return { ...head, source: `index:${FUNDING_CHAIN}@${read.checkpoint.block}`, from: read.historyStart === null ? null : iso(read.historyStart), through: iso(read.checkpoint.timestamp) };
  }

  /** The table brought up to the index's checkpoint, or why the chain cannot be read. */
  private async read(): Promise<{ table: FirstSeen; checkpoint: { block: number; timestamp: number }; historyStart: number | null } | { unreadable: string }> {
    if (!this.chains.list().some((c) => c.name === FUNDING_CHAIN)) return { unreadable: `${FUNDING_CHAIN} is not connected to this deployment` };
    const reader = new IndexReader(this.store, this.chainId);
    const checkpoint = await reader.checkpoint();
    if (!checkpoint) return { unreadable: `${FUNDING_CHAIN} is not indexed yet` };
    let perStore = tables.get(this.store);
    if (!perStore) tables.set(this.store, (perStore = new Map()));
    let table = perStore.get(this.chainId);
    if (!table) perStore.set(this.chainId, (table = { through: -1, first: new Map() }));
    // An index far behind what was read (a fresh index, a deep reorganisation) is read again from its start.
    if (checkpoint.block < table.through - REORG_SLACK) perStore.set(this.chainId, (table = { through: -1, first: new Map() }));
    while (table.through < checkpoint.block) {
      if (!table.pass) {
        const t = table;
        t.pass = this.extend(reader, t, checkpoint.block).finally(() => delete t.pass);
      }
      await table.pass;
    }
    return { table, checkpoint, historyStart: await reader.historyStart() };
  }

  private async extend(reader: IndexReader, table: FirstSeen, to: number): Promise<void> {
    if (to <= table.through) return;
    const from = Math.max(0, table.through - REORG_SLACK + 1);
    for (const [account, f] of table.first) if (f.block >= from) table.first.delete(account);
    const rows = await reader.transfers(from, to);
    for (const row of rows) {
      if (row.token.toLowerCase() !== this.token) continue;
      const account = row.to.toLowerCase();
      if (!table.first.has(account)) table.first.set(account, funding(row));
    }
    table.through = to;
  }
}

function funding(row: Row<'transfer'>): Omit<FirstFunding, 'censored'> {
  return { time: row.ts, block: row.block, tx: row.tx, amountUsd: Number(formatUnits(BigInt(row.value), USDC_DECIMALS)), from: row.from, token: row.token };
}

function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}
