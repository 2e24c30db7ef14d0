/** The standard interfaces chain readers use (the indexer and the engines): ERC-20 and Uniswap V2. Nothing Sibyl-specific. */
import { parseAbi, parseAbiItem } from 'viem';

export const erc20ReadAbi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function balanceOf(address) view returns (uint256)',
]);

export const v2FactoryAbi = parseAbi(['function getPair(address, address) view returns (address)']);
export const v2PairAbi = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)']);

export const pairCreatedEvent = parseAbiItem(
  'event PairCreated(address indexed token0, address indexed token1, address pair, uint256)',
);
export const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
