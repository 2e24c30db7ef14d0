/**
 * The interfaces the tokenized-equity engines read, as their standards and issuers publish them:
 * ERC-8056's Scaled UI Amount (with its pending-multiplier extension), Chainlink's
 * AggregatorV3Interface for the underlyings' prices, and an issuer's token registry with reserve
 * attestations, found through a directory of issuers. Nothing here is specific to the embedded
 * chains: a real deployment's contracts with these interfaces read the same.
 */
import { parseAbi, parseAbiItem } from 'viem';

export const stockTokenAbi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function uiMultiplier() view returns (uint256)',
  'function newUIMultiplier() view returns (uint256)',
  'function effectiveAt() view returns (uint256)',
  'function issuer() view returns (address)',
  'function underlying() view returns (string)',
  'function owner() view returns (address)',
  'function paused() view returns (bool)',
  'function isBlocklisted(address) view returns (bool)',
]);

export const UI_MULTIPLIER_UPDATED = parseAbiItem('event UIMultiplierUpdated(uint256 oldMultiplier, uint256 newMultiplier, uint256 setAt, uint256 effectiveAt)');
export const PAUSED = parseAbiItem('event Paused(address account)');
export const UNPAUSED = parseAbiItem('event Unpaused(address account)');
export const BLOCKLISTED = parseAbiItem('event Blocklisted(address indexed account, bool blocked)');
export const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

export const stockIssuerAbi = parseAbi([
  'function name() view returns (string)',
  'function tokens() view returns (address[])',
  'function attestation(address token) view returns (uint256 reserveShares, uint256 asOf, uint256 attestedAt)',
]);
export const STOCK_TOKEN_LISTED = parseAbiItem('event StockTokenListed(address indexed token, string underlying, string symbol)');
export const RESERVES_ATTESTED = parseAbiItem('event ReservesAttested(address indexed token, uint256 reserveShares, uint256 asOf)');

export const issuerDirectoryAbi = parseAbi(['function issuers() view returns (address[])']);
export const ISSUER_REGISTERED = parseAbiItem('event IssuerRegistered(address indexed issuer, string name)');

export const feedDirectoryAbi = parseAbi([
  'function feed(string underlying) view returns (address)',
  'function underlyings() view returns (string[])',
]);

export const aggregatorV3Abi = parseAbi([
  'function decimals() view returns (uint8)',
  'function description() view returns (string)',
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
  'function getRoundData(uint80 roundId) view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
]);
export const ANSWER_UPDATED = parseAbiItem('event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt)');
