/**
 * The hook layer of a Uniswap v4-style singleton pool manager (`hooks/v1`), read from the chain so
 * a real v4 PoolManager is read unchanged: every pool from the manager's Initialize logs, each
 * hook's permissions decoded from the lowest 14 bits of its address (v4's convention: bit 13
 * before-initialize ... bit 0 after-remove-liquidity-returns-delta), what its runtime code can do
 * (DELEGATECALL, SELFDESTRUCT, CALLCODE, owner fee / pause / upgrade functions, an EIP-1967
 * implementation), and each pool's volume and LP fees from its Swap logs over a block range.
 */
import { formatUnits, getAddress, parseAbi, parseAbiItem, toFunctionSelector, type Address, type Hex } from 'viem';
import type { ConnectedChain } from '../../chain/runtime.js';
import { readInHalves } from '../../chain/log-ranges.js';
import { rowScore } from '../../indexer/rows.js';
import { valueAt, type Market } from '../data/market.js';
import { namedOpcodes, pushedSelectors, type NamedOpcode } from '../security/bytecode.js';
import { tokenInfos } from '../data/tokens.js';

export const HOOKS_METHODOLOGY =
  'hooks/v1 (pools from the pool manager\'s Initialize logs; permissions from the lowest 14 bits of the hook address, v4\'s convention; bytecode risks from the hook\'s runtime code walked instruction by instruction, PUSH data and metadata skipped: DELEGATECALL, SELFDESTRUCT, CALLCODE, owner fee/pause/upgrade selectors, and the EIP-1967 implementation slot, whose code is read too; per pool the swaps, volume and LP fees of its Swap logs over the period (the pool\'s own trade; fee = input x fee / 10^6), in USD at each swap\'s moment from the index (market/v1); a swap that moved nothing in the pool counts as one the hook served itself)';

/** v4's permission names, bit 13 of the address down to bit 0. */
export const HOOK_PERMISSIONS = [
  'beforeInitialize', 'afterInitialize', 'beforeAddLiquidity', 'afterAddLiquidity', 'beforeRemoveLiquidity', 'afterRemoveLiquidity',
  'beforeSwap', 'afterSwap', 'beforeDonate', 'afterDonate', 'beforeSwapReturnDelta', 'afterSwapReturnDelta', 'afterAddLiquidityReturnDelta', 'afterRemoveLiquidityReturnDelta',
] as const;
export type HookPermission = (typeof HOOK_PERMISSIONS)[number];

export const HOOK_RISKS = ['takes-input', 'takes-output', 'takes-liquidity', 'no-code', 'selfdestruct', 'owner-fee', 'owner-pause', 'upgradeable', 'delegatecall', 'callcode'] as const;
export type HookRisk = (typeof HOOK_RISKS)[number];

const RISK_NOTES: Record<HookRisk, string> = {
  'takes-input': 'before-swap-returns-delta: the hook can take part or all of a swap\'s input before the pool trades (a "no-op" hook keeps it all)',
  'takes-output': 'after-swap-returns-delta: the hook can take part of a swap\'s output',
  'takes-liquidity': 'liquidity-returns-delta: the hook can take part of what liquidity providers add or withdraw',
  'no-code': 'no code at the hook address (never deployed, or destroyed): its pools\' calls into it fail',
  selfdestruct: 'its code contains SELFDESTRUCT',
  'owner-fee': 'an owner can set the swap fee of its pools (on a dynamic-fee pool up to 100% of the input)',
  'owner-pause': 'an owner can pause its pools\' swaps or deposits',
  upgradeable: 'its code can be replaced (an EIP-1967 proxy, or an upgrade function)',
  delegatecall: 'it runs other contracts\' code in its own context (DELEGATECALL)',
  callcode: 'its code contains CALLCODE',
};
const HIGH: readonly HookRisk[] = ['takes-input', 'takes-output', 'takes-liquidity', 'no-code', 'selfdestruct'];

/** Functions by which someone other than the pools changes what a hook does. */
const HOOK_POWERS = {
  'owner-fee': ['setFee(uint24)', 'setFee(uint256)', 'setLPFee(uint24)', 'setLpFee(uint24)', 'setSwapFee(uint24)', 'setDynamicFee(uint24)', 'setHookFee(uint24)', 'setFeeBps(uint256)'],
  'owner-pause': ['pause()', 'setPaused(bool)', 'pause(bool)'],
  upgradeable: ['upgradeTo(address)', 'upgradeToAndCall(address,bytes)', 'setImplementation(address)'],
} as const satisfies Partial<Record<HookRisk, readonly string[]>>;
const POWER_SELECTORS = Object.entries(HOOK_POWERS).flatMap(([risk, sigs]) => sigs.map((sig) => ({ risk: risk as HookRisk, sig, selector: toFunctionSelector(`function ${sig}`) })));

/** bytes32(uint256(keccak256('eip1967.proxy.implementation')) - 1) and the admin slot beside it. */
const IMPLEMENTATION_SLOT: Hex = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
const ADMIN_SLOT: Hex = '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103';
/** v4's flag for a pool whose hook sets the LP fee. */
const DYNAMIC_FEE = 0x800000;
const OWNER_ABI = parseAbi(['function owner() view returns (address)']);

export const INITIALIZE_EVENT = parseAbiItem('event Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick)');
export const SWAP_EVENT = parseAbiItem('event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)');

/** The callbacks a hook address enables. */
export function hookPermissions(hook: string): HookPermission[] {
  const bits = Number(BigInt(hook) & 0x3fffn);
  return HOOK_PERMISSIONS.filter((_, i) => (bits & (1 << (13 - i))) !== 0);
}

/** What the permissions alone allow a hook to take. */
function permissionRisks(permissions: readonly HookPermission[]): HookRisk[] {
  const risks: HookRisk[] = [];
  if (permissions.includes('beforeSwapReturnDelta')) risks.push('takes-input');
  if (permissions.includes('afterSwapReturnDelta')) risks.push('takes-output');
  if (permissions.includes('afterAddLiquidityReturnDelta') || permissions.includes('afterRemoveLiquidityReturnDelta')) risks.push('takes-liquidity');
  return risks;
}

export interface CodeFindings {
  opcodes: NamedOpcode[];
  /** Owner-power functions the code dispatches on (signatures). */
  functions: string[];
  risks: HookRisk[];
}

/** What runtime code can do, read instruction by instruction (PUSH data and metadata are not code). */
export function codeRisks(code: string): CodeFindings {
  const opcodes = namedOpcodes(code);
  const selectors = pushedSelectors(code);
  const powers = POWER_SELECTORS.filter((p) => selectors.has(p.selector));
  const risks = new Set<HookRisk>(powers.map((p) => p.risk));
  if (opcodes.includes('DELEGATECALL')) risks.add('delegatecall');
  if (opcodes.includes('SELFDESTRUCT')) risks.add('selfdestruct');
  if (opcodes.includes('CALLCODE')) risks.add('callcode');
  return { opcodes, functions: powers.map((p) => p.sig), risks: [...risks] };
}

export interface HookPoolRow {
  id: Hex;
  currency0: { address: Address; symbol: string | null };
  currency1: { address: Address; symbol: string | null };
  /** LP fee in hundredths of a basis point, or 'dynamic' (set by the hook). */
  fee: number | 'dynamic';
  tickSpacing: number;
  initializedBlock: number;
  swaps: number;
  /** Swaps in which the pool itself traded nothing: the hook served (or kept) the input. */
  untradedSwaps: number;
  /** Token units each side moved through the pool's own trades. */
  volume0: string;
  volume1: string;
  volumeUsd: number | null;
  /** LP fees of the period: each swap's input x its fee. */
  fees0: string;
  fees1: string;
  feesUsd: number | null;
}

export interface HookRow {
  hook: Address;
  /** The lowest 14 bits of the address. */
  flags: Hex;
  permissions: HookPermission[];
  risks: { kind: HookRisk; note: string; evidence: string }[];
  riskLevel: 'high' | 'medium' | 'low';
  code: { bytes: number; opcodes: NamedOpcode[]; functions: string[] };
  /** EIP-1967: the implementation its calls are delegated to, whose code is read too. */
  proxy: { implementation: Address; admin: Address | null } | null;
  owner: Address | null;
  firstPoolBlock: number;
  pools: HookPoolRow[];
  swaps: number;
  volumeUsd: number | null;
  feesUsd: number | null;
}

export interface HookLayer {
  manager: Address;
  poolsRead: number;
  hooklessPools: number;
  hookCount: number;
  initializeLogs: number;
  swapLogs: number;
  /** Newest first (by the block of its first pool). */
  hooks: HookRow[];
}

interface PoolAggregate {
  swaps: number;
  untraded: number;
  raw0: bigint;
  raw1: bigint;
  fees0: bigint;
  fees1: bigint;
  usd: number;
  feesUsd: number;
  priced: boolean;
}

/**
 * Reads the hook layer of `manager`: pools from block 0 to `head`, volume from `volumeFrom` to
 * `head`. Prices come from `market` (the chain's index) when given; without one USD figures are null.
 */
export async function scanHookLayer(chain: ConnectedChain, manager: Address, options: { head: bigint; volumeFrom: bigint; market: Market | null }): Promise<HookLayer> {
  const { head, volumeFrom, market } = options;
  const [inits, swaps] = await Promise.all([
    readInHalves((from, to) => chain.client.getLogs({ address: manager, event: INITIALIZE_EVENT, fromBlock: BigInt(from), toBlock: BigInt(to), strict: true }), 0, Number(head)),
    volumeFrom > head ? Promise.resolve([]) : readInHalves((from, to) => chain.client.getLogs({ address: manager, event: SWAP_EVENT, fromBlock: BigInt(from), toBlock: BigInt(to), strict: true }), Number(volumeFrom), Number(head)),
  ]);
  const currencies = [...new Set(inits.flatMap((l) => [getAddress(l.args.currency0), getAddress(l.args.currency1)]))];
  const infos = await tokenInfos(chain, currencies);
  const pools = new Map(inits.map((l) => [l.args.id.toLowerCase(), l]));

  const aggregates = new Map<string, PoolAggregate>();
  for (const s of swaps) {
    const init = pools.get(s.args.id.toLowerCase());
    if (!init) continue; // a pool initialized after head
    const a = aggregates.get(s.args.id.toLowerCase()) ?? { swaps: 0, untraded: 0, raw0: 0n, raw1: 0n, fees0: 0n, fees1: 0n, usd: 0, feesUsd: 0, priced: true };
    const [amount0, amount1] = [s.args.amount0, s.args.amount1];
    a.swaps++;
    if (amount0 === 0n && amount1 === 0n) a.untraded++;
    a.raw0 += abs(amount0);
    a.raw1 += abs(amount1);
    // v4's Swap deltas are the swapper's: the negative side is what it paid in.
    const fee = BigInt(s.args.fee);
    if (amount0 < 0n) a.fees0 += (-amount0 * fee) / 1_000_000n;
    if (amount1 < 0n) a.fees1 += (-amount1 * fee) / 1_000_000n;
    const usd = await swapUsd(market, infos, init, s, Number(volumeFrom));
    if (usd === null) a.priced = a.priced && amount0 === 0n && amount1 === 0n;
    else {
      a.usd += usd;
      a.feesUsd += (usd * Number(fee)) / 1_000_000;
    }
    aggregates.set(s.args.id.toLowerCase(), a);
  }

  const byHook = new Map<string, typeof inits>();
  for (const l of inits) {
    if (/^0x0{40}$/i.test(l.args.hooks)) continue;
    const key = l.args.hooks.toLowerCase();
    byHook.set(key, [...(byHook.get(key) ?? []), l]);
  }
  const hooks = await Promise.all([...byHook.values()].map(async (hookInits) => {
    const hook = getAddress(hookInits[0]!.args.hooks);
    const poolRows = hookInits.map((l) => poolRow(l, aggregates.get(l.args.id.toLowerCase()), infos));
    return hookRow(chain, hook, head, poolRows);
  }));
  hooks.sort((a, b) => b.firstPoolBlock - a.firstPoolBlock || a.hook.localeCompare(b.hook));
  return {
    manager: getAddress(manager),
    poolsRead: inits.length,
    hooklessPools: inits.filter((l) => /^0x0{40}$/i.test(l.args.hooks)).length,
    hookCount: hooks.length,
    initializeLogs: inits.length,
    swapLogs: swaps.length,
    hooks,
  };
}

type InitLog = { args: { id: Hex; currency0: Address; currency1: Address; fee: number; tickSpacing: number; hooks: Address }; blockNumber: bigint };
type SwapLog = { args: { amount0: bigint; amount1: bigint }; blockNumber: bigint; logIndex: number };

/** A swap's USD value: its input side at that moment's price, else its output side; null when neither is priced. */
async function swapUsd(market: Market | null, infos: Map<Address, { decimals: number | null }>, init: InitLog, swap: SwapLog, fromBlock: number): Promise<number | null> {
  if (!market) return null;
  const sides = [[init.args.currency0, swap.args.amount0], [init.args.currency1, swap.args.amount1]] as const;
  // Input side (negative) first.
  const ordered = swap.args.amount0 < 0n ? sides : [sides[1], sides[0]];
  const score = rowScore(Number(swap.blockNumber), swap.logIndex);
  for (const [currency, amount] of ordered) {
    const decimals = infos.get(getAddress(currency))?.decimals;
    if (decimals === null || decimals === undefined) continue;
    const price = valueAt(await market.timeline(currency.toLowerCase(), fromBlock), score);
    if (price !== null) return Number(formatUnits(abs(amount), decimals)) * price;
  }
  return null;
}

function poolRow(l: InitLog, a: PoolAggregate | undefined, infos: Map<Address, { symbol: string | null; decimals: number | null }>): HookPoolRow {
  const [c0, c1] = [infos.get(getAddress(l.args.currency0)), infos.get(getAddress(l.args.currency1))];
  const units = (raw: bigint, decimals: number | null | undefined) => (decimals === null || decimals === undefined ? raw.toString() : formatUnits(raw, decimals));
  const priced = a ? a.priced : true;
  return {
    id: l.args.id,
    currency0: { address: getAddress(l.args.currency0), symbol: c0?.symbol ?? null },
    currency1: { address: getAddress(l.args.currency1), symbol: c1?.symbol ?? null },
    fee: l.args.fee === DYNAMIC_FEE ? 'dynamic' : l.args.fee,
    tickSpacing: l.args.tickSpacing,
    initializedBlock: Number(l.blockNumber),
    swaps: a?.swaps ?? 0,
    untradedSwaps: a?.untraded ?? 0,
    volume0: units(a?.raw0 ?? 0n, c0?.decimals),
    volume1: units(a?.raw1 ?? 0n, c1?.decimals),
    volumeUsd: priced ? round2(a?.usd ?? 0) : null,
    fees0: units(a?.fees0 ?? 0n, c0?.decimals),
    fees1: units(a?.fees1 ?? 0n, c1?.decimals),
    feesUsd: priced ? round2(a?.feesUsd ?? 0) : null,
  };
}

async function hookRow(chain: ConnectedChain, hook: Address, head: bigint, pools: HookPoolRow[]): Promise<HookRow> {
  const permissions = hookPermissions(hook);
  const [code, implementationWord, adminWord, owner] = await Promise.all([
    chain.client.getCode({ address: hook, blockNumber: head }),
    chain.client.getStorageAt({ address: hook, slot: IMPLEMENTATION_SLOT, blockNumber: head }),
    chain.client.getStorageAt({ address: hook, slot: ADMIN_SLOT, blockNumber: head }),
    chain.client.readContract({ address: hook, abi: OWNER_ABI, functionName: 'owner', blockNumber: head }).catch(() => null),
  ]);
  const implementation = addressIn(implementationWord);
  const implementationCode = implementation ? await chain.client.getCode({ address: implementation, blockNumber: head }) : undefined;
  const own = code && code !== '0x' ? codeRisks(code) : null;
  const behind = implementationCode && implementationCode !== '0x' ? codeRisks(implementationCode) : null;
  const kinds = new Set<HookRisk>([...permissionRisks(permissions), ...(own?.risks ?? []), ...(behind?.risks ?? [])]);
  if (!own) kinds.add('no-code');
  if (implementation) kinds.add('upgradeable');
  const functions = [...new Set([...(own?.functions ?? []), ...(behind?.functions ?? [])])];
  const opcodes = [...new Set([...(own?.opcodes ?? []), ...(behind?.opcodes ?? [])])].sort();
  const untraded = pools.reduce((s, p) => s + p.untradedSwaps, 0);
  const swaps = pools.reduce((s, p) => s + p.swaps, 0);
  const evidence = (kind: HookRisk): string => {
    switch (kind) {
      case 'takes-input': return `permission bit 3 set; ${untraded} of its pools' ${swaps} swaps in the period left the pool untouched`;
      case 'takes-output': return 'permission bit 2 set';
      case 'takes-liquidity': return 'permission bit 1 or 0 set';
      case 'no-code': return `no code at ${hook} as of block ${head}`;
      case 'upgradeable': return implementation ? `EIP-1967 implementation ${implementation}` : functions.filter((f) => (HOOK_POWERS.upgradeable as readonly string[]).includes(f)).join(', ');
      case 'owner-fee': case 'owner-pause': return functions.filter((f) => (HOOK_POWERS[kind] as readonly string[]).includes(f)).join(', ');
      default: return `${kind.toUpperCase()} in its ${own?.opcodes.includes(kind.toUpperCase() as NamedOpcode) ? '' : 'implementation\'s '}runtime code`;
    }
  };
  const risks = HOOK_RISKS.filter((k) => kinds.has(k)).map((kind) => ({ kind, note: RISK_NOTES[kind], evidence: evidence(kind) }));
  const sum = (pick: (p: HookPoolRow) => number | null) => (pools.some((p) => pick(p) === null) ? null : round2(pools.reduce((s, p) => s + pick(p)!, 0)));
  return {
    hook,
    flags: `0x${(Number(BigInt(hook) & 0x3fffn)).toString(16).padStart(4, '0')}`,
    permissions,
    risks,
    riskLevel: risks.some((r) => HIGH.includes(r.kind)) ? 'high' : risks.length ? 'medium' : 'low',
    code: { bytes: code && code !== '0x' ? (code.length - 2) / 2 : 0, opcodes, functions },
    proxy: implementation ? { implementation, admin: addressIn(adminWord) } : null,
    owner: owner && !/^0x0{40}$/i.test(owner) ? getAddress(owner) : null,
    firstPoolBlock: Math.min(...pools.map((p) => p.initializedBlock)),
    pools,
    swaps,
    volumeUsd: sum((p) => p.volumeUsd),
    feesUsd: sum((p) => p.feesUsd),
  };
}

/** The address in a storage word, or null when the word is empty. */
function addressIn(word: Hex | undefined): Address | null {
  if (!word || BigInt(word) === 0n) return null;
  return getAddress(`0x${word.slice(-40)}`);
}

const abs = (x: bigint) => (x < 0n ? -x : x);
const round2 = (n: number) => Math.round(n * 100) / 100;
