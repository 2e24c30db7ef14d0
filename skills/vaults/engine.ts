/**
 * ERC-4626 vaults (`vaults/v1`), read from the chain itself so a real chain's vaults are read the
 * same way: the vaults the chain's vault factory announced (VaultCreated logs of
 * EMBEDDED_VAULT_FACTORY) and any vault address given; for each, its share price at every
 * Deposit and Withdraw (assets / shares of the event) and at the head (convertToAssets), the
 * realised APY that price history gives over 7 and 30 days (over the history there is when it is
 * shorter, said so), TVL at the market price of the underlying, and what a depositor should know
 * (deprecated, deposits paused, no income, one holder owning most shares, a young history, little
 * held for withdrawals). Never an advertised rate.
 */
import { erc20Abi, erc4626Abi, formatUnits, getAddress, parseAbiItem, type Address } from 'viem';
import { EMBEDDED_VAULT_FACTORY } from '../../chain/chains.js';
import { readInHalves } from '../../chain/log-ranges.js';
import type { ConnectedChain } from '../../chain/runtime.js';
import { round, type Market } from '../data/market.js';

const YEAR_S = 365 * 86_400;
export const APY_WINDOWS = { '7d': 7 * 86_400, '30d': 30 * 86_400 } as const;
export type ApyWindow = keyof typeof APY_WINDOWS;
/** Below this span of history an APY is not annualised at all: a few hours say nothing about a year. */
export const MIN_APY_SPAN_S = 6 * 3600;
/** A vault whose share price rose less than this (APY %) over a full 7-day window pays no income. */
export const NO_INCOME_APY_PCT = 0.05;
/** One holder with at least this share of the supply can move the vault alone. */
export const CONCENTRATION_PCT = 50;
/** Less than this share of total assets held by the vault itself: a large withdrawal waits for the strategy. */
export const LOW_IDLE_PCT = 5;

export const VAULTS_METHODOLOGY = `vaults/v1 (ERC-4626 vaults from the vault factory's VaultCreated logs and any address given, read from the chain; share price = assets / shares of each Deposit and Withdraw event and convertToAssets at the head; realised APY = (head price / price at the last event at or before the window start)^(year / elapsed) - 1 over 7d and 30d, over the history there is when shorter (fullWindow false), none under ${MIN_APY_SPAN_S / 3600} h; TVL = totalAssets at the market/v1 price of the underlying; notes: deprecated (the vault says so), deposits-paused (maxDeposit 0), no-income (under ${NO_INCOME_APY_PCT}% over a full 7 days), concentration (one holder >= ${CONCENTRATION_PCT}% of shares by its deposits less withdrawals), young-history (under 30 days of events), low-idle (under ${LOW_IDLE_PCT}% of assets held by the vault))`;

const VAULT_CREATED = parseAbiItem('event VaultCreated(address indexed vault, address indexed asset, address indexed curator, string name, string symbol)');
const DEPOSIT = parseAbiItem('event Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares)');
const WITHDRAW = parseAbiItem('event Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares)');
/** What vaults that can be retired say of themselves (SibylVault; many real vaults have no such flag). */
const DEPRECATED_ABI = [{ type: 'function', name: 'deprecated', stateMutability: 'view', inputs: [], outputs: [{ type: 'bool' }] }] as const;
/** An address nobody deposits from: maxDeposit of a stranger says whether the vault takes deposits at all. */
const STRANGER: Address = '0x000000000000000000000000000000000000dEaD';
/** convertToAssets of this many whole shares, so the head price keeps the digits an event's price has. */
const PRICE_SHARES = 10n ** 6n;

export interface VaultHead {
  vault: Address;
  name: string | null;
  symbol: string | null;
  shareDecimals: number;
  asset: Address;
  assetSymbol: string | null;
  assetDecimals: number;
  totalAssets: bigint;
  totalSupply: bigint;
  /** Underlying per share at the head, token units. */
  sharePrice: number;
  depositsOpen: boolean;
  /** null: the vault has no such flag. */
  deprecated: boolean | null;
  /** Underlying the vault holds itself (what withdrawals can take now). */
  idle: bigint;
}

/** One moment of the share price: a Deposit or Withdraw of the vault. */
export interface PricePoint {
  block: number;
  ts: number;
  price: number;
  kind: 'deposit' | 'withdraw';
  owner: Address;
  shares: bigint;
}

export interface RealisedApy {
  apyPct: number;
  /** Where the price was taken from (the last event at or before the window start, or the first there is). */
  from: string;
  days: number;
  /** False when the history is shorter than the window: the APY is over what there is. */
  fullWindow: boolean;
}

export type RiskKind = 'deprecated' | 'deposits-paused' | 'no-income' | 'concentration' | 'young-history' | 'low-idle';

export interface VaultRow {
  vault: Address;
  name: string | null;
  symbol: string | null;
  asset: { address: Address; symbol: string | null; decimals: number };
  discoveredBy: 'factory' | 'given';
  totalAssets: string;
  totalSupply: string;
  sharePrice: number;
  priceUsd: number | null;
  tvlUsd: number | null;
  apy: Record<ApyWindow, RealisedApy | null>;
  history: { events: number; firstEvent: string | null; days: number };
  depositsOpen: boolean;
  deprecated: boolean;
  topHolderPct: number | null;
  risks: { kind: RiskKind; note: string }[];
}

/** Vaults the chain's vault factory created up to `toBlock`, in creation order. */
export async function factoryVaults(chain: ConnectedChain, toBlock: bigint): Promise<Address[]> {
  const logs = await readInHalves((from, to) => chain.client.getLogs({ address: EMBEDDED_VAULT_FACTORY, event: VAULT_CREATED, fromBlock: BigInt(from), toBlock: BigInt(to), strict: true }), 0, Number(toBlock));
  return logs.map((l) => getAddress(l.args.vault!));
}

/** A vault's state at `block`, or null when the address is not an ERC-4626 vault (no asset()). */
export async function readVaultHead(chain: ConnectedChain, vault: Address, block: bigint): Promise<VaultHead | null> {
  const c = chain.client;
  const read = <T>(address: Address, abi: readonly unknown[], functionName: string, args: readonly unknown[] = []) =>
    c.readContract({ address, abi: abi as never, functionName, args, blockNumber: block } as never) as Promise<T>;
  const asset = await read<Address>(vault, erc4626Abi, 'asset').catch(() => null);
  if (!asset) return null;
  const [name, symbol, shareDecimals, totalAssets, totalSupply, maxDeposit, deprecated, assetSymbol, assetDecimals, idle] = await Promise.all([
    read<string>(vault, erc20Abi, 'name').catch(() => null),
    read<string>(vault, erc20Abi, 'symbol').catch(() => null),
    read<number>(vault, erc20Abi, 'decimals'),
    read<bigint>(vault, erc4626Abi, 'totalAssets'),
    read<bigint>(vault, erc20Abi, 'totalSupply'),
    read<bigint>(vault, erc4626Abi, 'maxDeposit', [STRANGER]).catch(() => 0n),
    read<boolean>(vault, DEPRECATED_ABI, 'deprecated').catch(() => null),
    read<string>(asset, erc20Abi, 'symbol').catch(() => null),
    read<number>(asset, erc20Abi, 'decimals'),
    read<bigint>(asset, erc20Abi, 'balanceOf', [vault]),
  ]);
  const unit = 10n ** BigInt(shareDecimals);
  const converted = await read<bigint>(vault, erc4626Abi, 'convertToAssets', [unit * PRICE_SHARES]).catch(() => null);
  const sharePrice = converted !== null
    ? Number(formatUnits(converted, assetDecimals)) / Number(PRICE_SHARES)
    : totalSupply > 0n ? Number(formatUnits(totalAssets, assetDecimals)) / Number(formatUnits(totalSupply, shareDecimals)) : 1;
  return { vault: getAddress(vault), name, symbol, shareDecimals, asset: getAddress(asset), assetSymbol, assetDecimals, totalAssets, totalSupply, sharePrice, depositsOpen: maxDeposit > 0n, deprecated, idle };
}

/** Every Deposit and Withdraw of the vaults up to `toBlock` as share-price points, by vault (lower case), oldest first. */
export async function priceHistories(chain: ConnectedChain, heads: readonly VaultHead[], toBlock: bigint): Promise<Map<string, PricePoint[]>> {
  const out = new Map<string, PricePoint[]>(heads.map((h) => [h.vault.toLowerCase(), []]));
  if (!heads.length) return out;
  const byVault = new Map(heads.map((h) => [h.vault.toLowerCase(), h]));
  const logs = await readInHalves((from, to) => chain.client.getLogs({ address: heads.map((h) => h.vault), events: [DEPOSIT, WITHDRAW], fromBlock: BigInt(from), toBlock: BigInt(to), strict: true }), 0, Number(toBlock));
  const times = blockTimes(chain);
  for (const l of logs) {
    const head = byVault.get(l.address.toLowerCase());
    const { assets, shares, owner } = l.args as { assets: bigint; shares: bigint; owner: Address };
    if (!head || shares === 0n) continue;
    const ts = (l as { blockTimestamp?: bigint | string }).blockTimestamp;
    out.get(l.address.toLowerCase())!.push({
      block: Number(l.blockNumber), ts: ts === undefined ? await times(l.blockNumber!) : Number(ts),
      price: Number(formatUnits(assets, head.assetDecimals)) / Number(formatUnits(shares, head.shareDecimals)),
      kind: l.eventName === 'Deposit' ? 'deposit' : 'withdraw', owner: getAddress(owner), shares,
    });
  }
  for (const points of out.values()) points.sort((a, b) => a.block - b.block);
  return out;
}

/** Block timestamps for nodes whose logs do not carry them, each block read once. */
function blockTimes(chain: ConnectedChain): (block: bigint) => Promise<number> {
  const seen = new Map<bigint, Promise<number>>();
  return (block) => {
    if (!seen.has(block)) seen.set(block, chain.client.getBlock({ blockNumber: block }).then((b) => Number(b.timestamp)));
    return seen.get(block)!;
  };
}

/** The APY the share price realised from the window's start (or the first point there is) to the head. */
export function realisedApy(points: readonly PricePoint[], head: { ts: number; price: number }, windowS: number): RealisedApy | null {
  const start = head.ts - windowS;
  const before = points.filter((p) => p.ts <= start).at(-1);
  const from = before ?? points[0];
  if (!from || from.price <= 0) return null;
  const elapsed = head.ts - from.ts;
  if (elapsed < MIN_APY_SPAN_S) return null;
  const apy = Math.pow(head.price / from.price, YEAR_S / elapsed) - 1;
  return { apyPct: round(apy * 100, 4), from: new Date(from.ts * 1000).toISOString(), days: round(elapsed / 86_400, 2), fullWindow: before !== undefined };
}

/** The largest holder's share of the supply, from each owner's deposits less withdrawals (share transfers not followed). */
export function topHolderPct(points: readonly PricePoint[], totalSupply: bigint): number | null {
  if (totalSupply === 0n) return null;
  const held = new Map<string, bigint>();
  for (const p of points) held.set(p.owner, (held.get(p.owner) ?? 0n) + (p.kind === 'deposit' ? p.shares : -p.shares));
  const top = [...held.values()].reduce((a, b) => (b > a ? b : a), 0n);
  return round(Math.min(100, (Number(top) / Number(totalSupply)) * 100), 2);
}

/** What a depositor should know of a vault, each with the figure behind it. */
export function riskNotes(head: VaultHead, row: Pick<VaultRow, 'apy' | 'history' | 'topHolderPct'>): VaultRow['risks'] {
  const risks: VaultRow['risks'] = [];
  if (head.deprecated) risks.push({ kind: 'deprecated', note: 'the vault says it is deprecated: no deposits, and its strategy is being wound down' });
  if (!head.depositsOpen && !head.deprecated) risks.push({ kind: 'deposits-paused', note: 'maxDeposit is 0: the vault takes no deposits now' });
  const week = row.apy['7d'];
  if (week?.fullWindow && week.apyPct < NO_INCOME_APY_PCT && head.totalAssets > 0n) risks.push({ kind: 'no-income', note: `the share price rose ${week.apyPct}% a year over the last 7 days: no income to speak of` });
  if (row.topHolderPct !== null && row.topHolderPct >= CONCENTRATION_PCT) risks.push({ kind: 'concentration', note: `one holder owns about ${row.topHolderPct}% of the shares` });
  if (row.history.days < 30) risks.push({ kind: 'young-history', note: row.history.events ? `${row.history.days} days of deposits and withdrawals: APYs are over that span` : 'no deposit or withdrawal yet: no share-price history' });
  if (head.totalAssets > 0n && Number(head.idle) / Number(head.totalAssets) * 100 < LOW_IDLE_PCT) {
    risks.push({ kind: 'low-idle', note: `the vault holds ${round(Number(head.idle) / Number(head.totalAssets) * 100, 2)}% of its assets itself: larger withdrawals wait for the strategy` });
  }
  return risks;
}

export interface VaultScan {
  vaults: VaultRow[];
  /** Addresses given that are not ERC-4626 vaults. */
  notVaults: Address[];
}

/** Every vault of the chain's factory plus `given`, as of the head block, most TVL first. */
export async function listVaults(chain: ConnectedChain, market: Market | null, head: { number: bigint; timestamp: bigint }, given: readonly Address[] = []): Promise<VaultScan> {
  const found = await factoryVaults(chain, head.number);
  return vaultRows(chain, market, head, [...found, ...given], new Set(found.map((a) => a.toLowerCase())));
}

/** The rows of these vault addresses (those in `fromFactory` marked so), most TVL first. */
export async function vaultRows(chain: ConnectedChain, market: Market | null, head: { number: bigint; timestamp: bigint }, candidates: readonly Address[], fromFactory: ReadonlySet<string> = new Set()): Promise<VaultScan> {
  const addresses = [...new Map(candidates.map((a) => [a.toLowerCase(), getAddress(a)])).values()];
  const read = await Promise.all(addresses.map((a) => readVaultHead(chain, a, head.number)));
  const heads = read.filter((h): h is VaultHead => h !== null);
  const notVaults = addresses.filter((_, i) => read[i] === null);
  const histories = await priceHistories(chain, heads, head.number);
  const now = Number(head.timestamp);
  const vaults = heads.map((h): VaultRow => {
    const points = histories.get(h.vault.toLowerCase()) ?? [];
    const at = { ts: now, price: h.sharePrice };
    const apy = { '7d': realisedApy(points, at, APY_WINDOWS['7d']), '30d': realisedApy(points, at, APY_WINDOWS['30d']) };
    const history = { events: points.length, firstEvent: points[0] ? new Date(points[0].ts * 1000).toISOString() : null, days: points[0] ? round((now - points[0].ts) / 86_400, 2) : 0 };
    const priceUsd = market?.priceNow(h.asset)?.usd ?? null;
    const amount = Number(formatUnits(h.totalAssets, h.assetDecimals));
    const partial = { apy, history, topHolderPct: topHolderPct(points, h.totalSupply) };
    return {
      vault: h.vault, name: h.name, symbol: h.symbol,
      asset: { address: h.asset, symbol: h.assetSymbol, decimals: h.assetDecimals },
      discoveredBy: fromFactory.has(h.vault.toLowerCase()) ? 'factory' : 'given',
      totalAssets: formatUnits(h.totalAssets, h.assetDecimals), totalSupply: formatUnits(h.totalSupply, h.shareDecimals),
      sharePrice: round(h.sharePrice, 10), priceUsd: priceUsd === null ? null : round(priceUsd, 6), tvlUsd: priceUsd === null ? null : round(amount * priceUsd, 2),
      ...partial,
      depositsOpen: h.depositsOpen, deprecated: h.deprecated === true,
      risks: riskNotes(h, partial),
    };
  });
  vaults.sort((a, b) => (b.tvlUsd ?? -1) - (a.tvlUsd ?? -1));
  return { vaults, notVaults };
}

/** The APY a vault is ranked by: 7 days, else 30 (which then covers the same shorter history), else none. */
export function rankingApy(v: Pick<VaultRow, 'apy'>): RealisedApy | null {
  return v.apy['7d'] ?? v.apy['30d'];
}

/** Vaults that take deposits, on `asset` when given, best realised APY first (those without one last). */
export function bestVaults(vaults: readonly VaultRow[], asset?: string): VaultRow[] {
  return vaults
    .filter((v) => v.depositsOpen && !v.deprecated && (!asset || v.asset.address.toLowerCase() === asset.toLowerCase()))
    .sort((a, b) => (rankingApy(b)?.apyPct ?? -Infinity) - (rankingApy(a)?.apyPct ?? -Infinity));
}
