/**
 * Who is an entity rather than a wallet acting for itself, methodology `entities/v1`: classified
 * once per index checkpoint from code and behaviour on chain, never from anyone's labels, so every
 * engine (holder concentration, whale tracking…) treats the same address the same way.
 *
 * - `protocol`: the address has contract code (an EIP-7702 delegation aside), named by the registry
 *   of known contracts (chain/chains.ts) or by what the index saw it be (pool, token, launchpad).
 * - `issuer`: sent the transaction that first minted a traded token (its deployer), or created it
 *   on a launchpad (skills/data/origins.ts, `origins`); the chain's USDC and wrapped native
 *   aside (issued before any index window), and tokens that never trade (a vault share's first
 *   mint is its first deposit).
 * - `treasury`: received a traded token's first mint without being its issuer: the reserve a
 *   supply is handed out from.
 * - `exchange`: a custody wallet: it only ever receives, and from at least EXCHANGE_MIN_DEPOSITORS
 *   wallets that each sent the deposit themselves (a sweep by someone else's contract is no deposit).
 * - `protocol-actor`: a wallet that moves value only with protocol contracts (and its funding from
 *   issuers and treasuries), at least once paying into one: a protocol's keeper, strategy,
 *   liquidator or depositor, never trading value with another wallet.
 *
 * Pool legs, mints and burns are left out of the behaviour read: they are trades and supply changes,
 * not who pays whom.
 */
import type { Address, Hash, Hex } from 'viem';
import {
  EMBEDDED_AIRDROP_FACTORY, EMBEDDED_FIXED_YIELD_FACTORY, EMBEDDED_FLASH_LENDER, EMBEDDED_SERVICE_TOKEN, EMBEDDED_VAULT_FACTORY,
  LENDING_MARKETS, MULTICALL3_ADDRESS, V4_POOL_MANAGERS,
} from '../../chain/chains.js';
import { origins } from './origins.js';
import type { Market } from './market.js';
import { txSenders } from './senders.js';

export const ENTITY_KINDS = ['protocol', 'issuer', 'treasury', 'exchange', 'protocol-actor'] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

/** Distinct wallets whose own deposits make a receive-only wallet a custody (exchange) wallet. */
export const EXCHANGE_MIN_DEPOSITORS = 3;

export const ENTITIES_METHODOLOGY = `entities/v1 (protocol: contract code, named by the known-contract registry; issuer: sent a traded token's first mint or created it on a launchpad; treasury: received a traded token's first mint; exchange: only receives, from >= ${EXCHANGE_MIN_DEPOSITORS} wallets' own deposits; protocol-actor: moves value only with protocol contracts, issuers and treasuries, paying into a protocol at least once; pool legs, mints and burns aside)`;

export interface Entity {
  address: Address;
  kind: EntityKind;
  /** What it is within its kind: pool, token, lending-market, vault-factory, contract, token-deployer, first-mint-holder, custody… */
  role: string;
  /** What on chain made it so. */
  evidence: string;
}

const BURN = new Set(['0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dead']);
/** An EIP-7702 delegation designator: an account with a key that runs someone's code, still a wallet. */
const DELEGATION_PREFIX = '0xef0100';
/**
 * getCode reads in flight at once (the chain client batches them into one request). A few: the
 * node is shared, and the security verdict waits on this book inside a screen that keeps at most
 * three calls in flight per token (skills/data/screening.ts).
 */
const CODE_READS_AT_ONCE = 16;

export class EntityBook {
  constructor(
    private readonly entities: ReadonlyMap<string, Entity>,
    private readonly contracts: ReadonlySet<string>,
  ) {}

  /** The entity at `address`, or null for a wallet acting for itself (or an address never seen). */
  of(address: string): Entity | null {
    return this.entities.get(address.toLowerCase()) ?? null;
  }

  kind(address: string): EntityKind | null {
    return this.of(address)?.kind ?? null;
  }

  /** Has contract code (a pool, token or any other protocol contract). */
  isContract(address: string): boolean {
    return this.contracts.has(address.toLowerCase());
  }

  /** A wallet (no contract code) that is no entity: a holder or trader in its own right. */
  isPlainWallet(address: string): boolean {
    const a = address.toLowerCase();
    return !BURN.has(a) && !this.contracts.has(a) && !this.entities.has(a);
  }

  all(): Entity[] {
    return [...this.entities.values()];
  }
}

const built = new WeakMap<Market, Promise<EntityBook>>();

/** The entity book of a market's index, built once per Market (one checkpoint). */
export function entityBook(market: Market): Promise<EntityBook> {
  let done = built.get(market);
  if (!done) {
    built.set(market, (done = buildBook(market)));
    done.catch(() => built.delete(market));
  }
  return done;
}

/** Contracts the chain's registry names (chain/chains.ts). */
function registry(market: Market): Map<string, string> {
  const name = market.chain.name;
  const fixed: [Address, string][] = [
    [EMBEDDED_VAULT_FACTORY, 'vault-factory'], [EMBEDDED_AIRDROP_FACTORY, 'airdrop-factory'], [EMBEDDED_FIXED_YIELD_FACTORY, 'fixed-yield-factory'],
    [EMBEDDED_FLASH_LENDER, 'flash-lender'], [EMBEDDED_SERVICE_TOKEN, 'token'], [MULTICALL3_ADDRESS, 'multicall'],
  ];
  const known = new Map(fixed.map(([a, role]) => [a.toLowerCase(), role]));
  const lending = LENDING_MARKETS[name];
  if (lending) {
    known.set(lending.pool.toLowerCase(), 'lending-market');
    known.set(lending.oracle.toLowerCase(), 'price-oracle');
  }
  const manager = V4_POOL_MANAGERS[name];
  if (manager) known.set(manager.toLowerCase(), 'v4-pool-manager');
  return known;
}

/**
 * Which of `addresses` hold contract code at the head. Read once per node and address across
 * checkpoints: code stays where it was deployed, and an address read as a wallet is read again
 * only once it moves value after the block it was read at (`lastMoved`).
 */
const codeCache = new Map<string, { contract: boolean; block: number }>();
const MAX_CACHED_CODES = 500_000;

async function codeOf(market: Market, addresses: readonly string[], lastMoved: ReadonlyMap<string, number>): Promise<Set<string>> {
  const contracts = new Set<string>();
  const head = market.head.block;
  const key = (a: string) => `${market.chain.rpcUrl}:${a}`;
  const unread = addresses.filter((a) => {
    const known = codeCache.get(key(a));
    if (known && (known.contract || known.block >= (lastMoved.get(a) ?? 0))) {
      if (known.contract) contracts.add(a);
      return false;
    }
    return true;
  });
  for (let i = 0; i < unread.length; i += CODE_READS_AT_ONCE) {
    const chunk = unread.slice(i, i + CODE_READS_AT_ONCE);
    const codes = await Promise.all(chunk.map((address) => market.chain.client.getCode({ address: address as Address, blockNumber: BigInt(head) })));
    chunk.forEach((a, j) => {
      const code = codes[j] as Hex | undefined;
      const contract = Boolean(code && code !== '0x' && !code.toLowerCase().startsWith(DELEGATION_PREFIX));
      if (contract) contracts.add(a);
      if (codeCache.size >= MAX_CACHED_CODES) codeCache.delete(codeCache.keys().next().value!); // oldest first
      codeCache.set(key(a), { contract, block: head });
    });
  }
  return contracts;
}

async function buildBook(market: Market): Promise<EntityBook> {
  const [transfers, launchpad, tokenOrigins] = await Promise.all([
    market.reader.transfers(0, market.head.block), market.reader.launchpad(0, market.head.block), origins(market),
  ]);
  const pools = new Set(market.pools.map((p) => p.pair));
  const venues = new Set(launchpad.map((r) => r.venue.toLowerCase()));
  const named = registry(market);
  const entities = new Map<string, Entity>();
  const set = (address: string, kind: EntityKind, role: string, evidence: string) => {
    if (!entities.has(address)) entities.set(address, { address: address as Address, kind, role, evidence });
  };

  // Who pays whom, pool legs, mints and burns aside.
  const sent = new Map<string, Set<string>>();
  const received = new Map<string, { from: string; tx: Hash; block: number }[]>();
  const seen = new Set<string>();
  const lastMoved = new Map<string, number>();
  for (const t of transfers) {
    const from = t.from.toLowerCase();
    const to = t.to.toLowerCase();
    for (const a of [from, to, t.token.toLowerCase()]) if (!BURN.has(a)) seen.add(a);
    for (const a of [from, to]) lastMoved.set(a, t.block);
    if (BURN.has(from) || BURN.has(to) || pools.has(from) || pools.has(to) || from === to) continue;
    sent.set(from, (sent.get(from) ?? new Set<string>()).add(to));
    const r = received.get(to) ?? [];
    r.push({ from, tx: t.tx, block: t.block });
    received.set(to, r);
  }
  for (const o of tokenOrigins.values()) for (const a of [o.deployer, o.firstHolder]) seen.add(a.toLowerCase());

  // Protocol contracts: the index's pools and tokens are contracts by what they emitted; the rest by their code.
  const known = (a: string) => pools.has(a) || market.tokens.has(a);
  const contracts = await codeOf(market, [...seen].filter((a) => !known(a)), lastMoved);
  for (const a of [...pools, ...market.tokens.keys()]) contracts.add(a);
  for (const a of contracts) {
    const role = pools.has(a) ? 'pool' : market.tokens.has(a) ? 'token' : venues.has(a) ? 'launchpad' : named.get(a) ?? 'contract';
    set(a, 'protocol', role, role === 'contract' ? 'contract code at the index head' : role === 'pool' || role === 'token' ? `an indexed ${role}` : `contract code; the known-contract registry's or the index's ${role}`);
  }

  // Issuers and treasuries, from each token's first mint (or its launch).
  // Only a traded token's (or a launch's): a vault share's first mint is its first deposit, and the
  // chain's USDC and wrapped native were issued long before any index window began.
  const issued = (o: { token: string; via: string }) => o.via === 'launchpad' || (market.tokens.has(o.token) && o.token !== market.chain.spec.usdc.toLowerCase() && o.token !== market.chain.spec.wrappedNative.toLowerCase());
  for (const o of [...tokenOrigins.values()].filter(issued)) {
    const deployer = o.deployer.toLowerCase();
    const holder = o.firstHolder.toLowerCase();
    if (!contracts.has(deployer)) set(deployer, 'issuer', o.via === 'launchpad' ? 'launchpad-creator' : 'token-deployer', `${o.via === 'launchpad' ? 'created' : 'sent the first mint of'} ${o.token} (block ${o.block})`);
    if (holder !== deployer && !contracts.has(holder)) set(holder, 'treasury', 'first-mint-holder', `received the first mint of ${o.token} (block ${o.block})`);
  }

  // Exchanges: receive-only wallets that many other wallets paid into, each by its own transaction.
  const wallet = (a: string) => !BURN.has(a) && !contracts.has(a) && !entities.has(a);
  const candidates = [...received].filter(([a, rows]) => wallet(a) && !sent.has(a) && new Set(rows.filter((r) => wallet(r.from)).map((r) => r.from)).size >= EXCHANGE_MIN_DEPOSITORS);
  const deposits = candidates.flatMap(([, rows]) => rows.filter((r) => wallet(r.from)));
  const senders = deposits.length ? await txSenders(market.chain, deposits) : new Map<Hash, Address>();
  for (const [a, rows] of candidates) {
    const depositors = new Set(rows.filter((r) => wallet(r.from) && senders.get(r.tx) === r.from).map((r) => r.from));
    if (depositors.size >= EXCHANGE_MIN_DEPOSITORS) set(a, 'exchange', 'custody', `only receives; ${depositors.size} wallets deposited to it themselves`);
  }

  // Protocol actors: wallets whose every counterparty is a protocol contract, an issuer or a treasury, paying into a protocol at least once.
  const funding = (a: string) => contracts.has(a) || ['issuer', 'treasury'].includes(entities.get(a)?.kind ?? '');
  for (const [a, to] of sent) {
    if (!wallet(a)) continue;
    const paidInto = [...to].filter((c) => contracts.has(c) && !market.tokens.has(c));
    const counterparties = [...to, ...(received.get(a) ?? []).map((r) => r.from)];
    if (paidInto.length && counterparties.every(funding)) {
      const roles = [...new Set(paidInto.map((c) => entities.get(c)?.role ?? 'contract'))];
      set(a, 'protocol-actor', 'protocol-user', `moves value only with protocol contracts; paid into ${paidInto.length} (${roles.join(', ')})`);
    }
  }
  return new EntityBook(entities, contracts);
}
