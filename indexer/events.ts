/** The standard events the indexer reads: ERC-20, Uniswap V2, the launchpad, ERC-3156 loans. */
import { parseAbiItem, toEventSelector, type AbiEvent } from 'viem';

export const EVENTS = {
  transfer: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'),
  pairCreated: parseAbiItem('event PairCreated(address indexed token0, address indexed token1, address pair, uint256 index)'),
  swap: parseAbiItem('event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)'),
  sync: parseAbiItem('event Sync(uint112 reserve0, uint112 reserve1)'),
  mint: parseAbiItem('event Mint(address indexed sender, uint256 amount0, uint256 amount1)'),
  burn: parseAbiItem('event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)'),
  tokenLaunched: parseAbiItem('event TokenLaunched(address indexed token, address indexed creator, string name, string symbol)'),
  curveTrade: parseAbiItem('event Trade(address indexed token, address indexed trader, bool isBuy, uint256 ethAmount, uint256 tokenAmount, uint256 virtualEth, uint256 virtualToken, uint256 realEth, uint256 progressBps)'),
  graduated: parseAbiItem('event Graduated(address indexed token, address indexed pair, uint256 ethAmount, uint256 tokenAmount)'),
  flashLoan: parseAbiItem('event FlashLoan(address indexed receiver, address indexed token, uint256 amount, uint256 fee)'),
  // WETH9-style wrappers move balances with these instead of Transfer.
  deposit: parseAbiItem('event Deposit(address indexed dst, uint256 wad)'),
  withdrawal: parseAbiItem('event Withdrawal(address indexed src, uint256 wad)'),
} as const satisfies Record<string, AbiEvent>;

export type EventName = keyof typeof EVENTS;

export const TOPICS = Object.fromEntries(Object.entries(EVENTS).map(([name, event]) => [name, toEventSelector(event)])) as Record<EventName, `0x${string}`>;
export const NAME_BY_TOPIC = new Map(Object.entries(TOPICS).map(([name, topic]) => [topic, name as EventName]));
export const ALL_TOPICS = Object.values(TOPICS);
