/**
 * Who holds a token, for the security verdict: balances replayed from every indexed Transfer of
 * the token (checked against totalSupply at the checkpoint), each holder classified by
 * `entities/v1` (../data/entities.ts), the one book holder-concentration and whale-tracking read:
 *
 * - left out of the circulating supply: pools, burn addresses, the token itself and every other
 *   contract (a `protocol` entity: its balance moves by its code, not by a holder's choice);
 * - in the circulating supply but set apart, not weighed as one hand: balances held for others,
 *   a `treasury` (the reserve a supply is handed out from), an `exchange` (its depositors'
 *   custody) and a `protocol-actor` (a wallet working for a protocol);
 * - weighed: wallets acting for themselves, and issuers (a deployer keeping its own token is one
 *   hand: the dev wallet of a fresh listing).
 */
import { erc20Abi, type Address } from 'viem';
import { round, type Market } from '../data/market.js';
import { entityBook, type EntityKind } from '../data/entities.js';

const BURN = new Set(['0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dead']);
/** Entity kinds whose balance is held for others: counted as circulating, never weighed as a holder's hand. */
const HELD_FOR_OTHERS: ReadonlySet<EntityKind> = new Set(['treasury', 'exchange', 'protocol-actor']);
const LISTED = 5;

export type Exclusion = 'liquidity_pool' | 'burn_address' | 'token_contract' | 'protocol_contract';

export interface Holding {
  address: string;
  /** Share of the circulating supply (outside excluded holders), in %. */
  pct: number;
}

export type Concentration =
  | { available: false; reason: string }
  | {
      available: true;
      /** Holders of the circulating supply, set-apart ones included. */
      holderCount: number;
      /** The largest holders weighed (at most 5): wallets and issuers, by share of the circulating supply. */
      top: Holding[];
      /** The largest holders set apart as holding for others (at most 5), with their entity kind and role. */
      setApart: (Holding & { kind: EntityKind; role: string })[];
      /** Excluded holders with their reason and share of the whole supply, in %. */
      excluded: { address: string; reason: Exclusion; supplyPct: number }[];
      /** Share of the whole supply outside excluded holders, in %. */
      circulatingPct: number;
    };

export async function concentration(market: Market, token: string): Promise<Concentration> {
  const t = token.toLowerCase();
  const [balances, book] = await Promise.all([market.reader.balances(t), entityBook(market)]);
  const supply = await market.chain.client.readContract({ address: t as Address, abi: erc20Abi, functionName: 'totalSupply', blockNumber: BigInt(market.head.block) }).catch(() => null);
  if (supply === null) return { available: false, reason: 'totalSupply() did not answer' };
  const all = Object.entries(balances).map(([holder, raw]) => ({ holder: holder.toLowerCase(), raw: BigInt(raw) })).filter((h) => h.raw > 0n);
  const replayed = all.reduce((s, h) => s + h.raw, 0n);
  if (replayed !== supply || supply === 0n) return { available: false, reason: `the index does not hold this token's whole transfer history (replayed ${replayed}, totalSupply ${supply})` };
  const pools = new Set(market.pools.map((p) => p.pair));
  const excludedBy = (h: string): Exclusion | null => (pools.has(h) ? 'liquidity_pool' : BURN.has(h) ? 'burn_address' : h === t ? 'token_contract' : book.isContract(h) ? 'protocol_contract' : null);
  const pctOf = (raw: bigint, whole: bigint) => (whole === 0n ? 0 : round(Number((raw * 10_000_000n) / whole) / 100_000, 4));
  const excluded = all.flatMap((h) => {
    const reason = excludedBy(h.holder);
    return reason ? [{ address: h.holder, reason, supplyPct: pctOf(h.raw, supply) }] : [];
  });
  const counted = all.filter((h) => !excludedBy(h.holder)).sort((a, b) => (b.raw > a.raw ? 1 : b.raw < a.raw ? -1 : 0));
  const circulating = counted.reduce((s, h) => s + h.raw, 0n);
  const apart = (h: string) => HELD_FOR_OTHERS.has(book.kind(h)!);
  return {
    available: true,
    holderCount: counted.length,
    top: counted.filter((h) => !apart(h.holder)).slice(0, LISTED).map((h) => ({ address: h.holder, pct: pctOf(h.raw, circulating) })),
    setApart: counted.filter((h) => apart(h.holder)).slice(0, LISTED).map((h) => {
      const e = book.of(h.holder)!;
      return { address: h.holder, pct: pctOf(h.raw, circulating), kind: e.kind, role: e.role };
    }),
    excluded,
    circulatingPct: pctOf(circulating, supply),
  };
}
