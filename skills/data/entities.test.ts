import { zeroAddress, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { LENDING_MARKETS } from '../../chain/chains.js';
import { addr, TKN, TKN_USDC, tokenUsdc, units, type Fixture } from './testing/fixtures.js';
import { entityBook, EXCHANGE_MIN_DEPOSITORS } from './entities.js';

const [DEPLOYER, TREASURY, VAULT, DEPOSITOR, STRATEGY, EXCHANGE, OPERATOR, SINK, DELEGATED, MINTER] =
  [addr(0xde9), addr(0x7ea), addr(0x4a17), addr(0xde90), addr(0x5747), addr(0xe8c), addr(0x0be), addr(0x5114), addr(0x7702), addr(0x1117)];
const WALLETS = [addr(0xa1), addr(0xa2), addr(0xa3)];
const VICTIMS = [addr(0xb1), addr(0xb2), addr(0xb3)];
const LENDING = LENDING_MARKETS.base!.pool.toLowerCase() as Address;
const SHARE = addr(0x54a2e); // a vault's share token: never traded

/** A contract's code, as getCode answers it. */
const code = (fx: Fixture, a: Address, hex = '0x6080604052') => fx.code.set(a.toLowerCase(), hex as `0x${string}`);

/**
 * TKN's supply minted by DEPLOYER to TREASURY and handed out; a vault lending to its strategy; a
 * lending market; an exchange three wallets pay into; a drainer's sink that victims "pay" through
 * transactions its operator sent; a wallet with an EIP-7702 delegation.
 */
function world(): Fixture {
  const fx = tokenUsdc(100_000, 500_000);
  fx.transfer(2, TKN, zeroAddress, TREASURY, units(1_000_000, 18), fx.tx(DEPLOYER));
  for (const [i, w] of WALLETS.entries()) {
    fx.transfer(3 + i, TKN, TREASURY, w, units(10_000, 18));
    fx.transfer(10 + i, fx.usdc, w, EXCHANGE, units(150_000, 6)); // each wallet's own deposit
  }
  fx.transfer(14, fx.usdc, WALLETS[0]!, WALLETS[1]!, units(1_000, 6)); // wallets pay each other
  // USDC is issued by whoever mints it on the chain: not an issuer found in the index window.
  fx.transfer(1, fx.usdc, zeroAddress, DEPOSITOR, units(1_000_000, 6), fx.tx(MINTER));
  // The vault: DEPOSITOR deposits (and its first share mint is no token issue), the vault lends to STRATEGY, which pays back.
  code(fx, VAULT);
  code(fx, SHARE);
  fx.token(SHARE, 'vSHARE', 18);
  const deposit = fx.tx(DEPOSITOR);
  fx.transfer(20, fx.usdc, DEPOSITOR, VAULT, units(500_000, 6), deposit);
  fx.transfer(20, SHARE, zeroAddress, DEPOSITOR, units(500_000, 18), deposit);
  fx.transfer(21, fx.usdc, VAULT, STRATEGY, units(400_000, 6));
  fx.transfer(30, fx.usdc, STRATEGY, VAULT, units(410_000, 6));
  code(fx, LENDING);
  fx.transfer(22, fx.usdc, WALLETS[2]!, LENDING, units(50_000, 6)); // a wallet also supplies to the lending market
  // A drainer sweeps victims to its sink: the sink only receives, but no victim sent its own transfer.
  for (const [i, v] of VICTIMS.entries()) fx.transfer(40 + i, fx.usdc, v, SINK, units(5_000, 6), fx.tx(OPERATOR));
  code(fx, DELEGATED, `0xef0100${'11'.repeat(20)}`);
  fx.transfer(45, fx.usdc, DELEGATED, WALLETS[0]!, units(10, 6));
  return fx;
}

describe('entities/v1', () => {
  it('classifies from code and behaviour on chain: protocol contracts, issuer, treasury, exchange, protocol actors', async () => {
    const book = await entityBook(await world().market());
    const kinds = Object.fromEntries(book.all().map((e) => [e.address, `${e.kind}/${e.role}`]));
    expect(kinds).toEqual({
      [TKN_USDC]: 'protocol/pool', [TKN]: 'protocol/token', [CHAIN_USDC]: 'protocol/token', 
      [VAULT]: 'protocol/contract', [SHARE]: 'protocol/contract', [LENDING]: 'protocol/lending-market',
      [DEPLOYER]: 'issuer/token-deployer', [TREASURY]: 'treasury/first-mint-holder',
      [EXCHANGE]: 'exchange/custody',
      [DEPOSITOR]: 'protocol-actor/protocol-user', [STRATEGY]: 'protocol-actor/protocol-user',
    });
    // Wallets acting for themselves, however much they move or whoever swept them.
    for (const w of [...WALLETS, ...VICTIMS, SINK, OPERATOR, DELEGATED, MINTER]) expect(book.isPlainWallet(w)).toBe(true);
    expect(book.isContract(VAULT)).toBe(true);
    expect(book.isContract(DELEGATED)).toBe(false);
    expect(book.of(EXCHANGE)!.evidence).toBe('only receives; 3 wallets deposited to it themselves');
  });

  it(`an exchange needs ${EXCHANGE_MIN_DEPOSITORS} depositors, and one that ever sends is a wallet`, async () => {
    const fx = world();
    fx.transfer(50, fx.usdc, EXCHANGE, WALLETS[0]!, units(1, 6));
    expect((await entityBook(await fx.market())).isPlainWallet(EXCHANGE)).toBe(true);
    const few = tokenUsdc();
    for (const w of WALLETS.slice(0, EXCHANGE_MIN_DEPOSITORS - 1)) few.transfer(10, few.usdc, w, EXCHANGE, units(1, 6));
    expect((await entityBook(await few.market())).isPlainWallet(EXCHANGE)).toBe(true);
  });

  it('a protocol\'s user that also pays another wallet is a wallet', async () => {
    const fx = world();
    fx.transfer(50, fx.usdc, STRATEGY, WALLETS[1]!, units(1, 6));
    const book = await entityBook(await fx.market());
    expect(book.isPlainWallet(STRATEGY)).toBe(true);
    expect(book.kind(DEPOSITOR)).toBe('protocol-actor');
  });

  it('reads an address\'s code once: again only after it moved value past the block it was read at', async () => {
    const fx = tokenUsdc();
    const [moves, rests] = [addr(0xc1), addr(0xc2)];
    fx.transfer(10, fx.usdc, moves, rests, units(1, 6));
    expect((await entityBook(await fx.market(20))).isPlainWallet(moves)).toBe(true);
    // Both get code (deployed where they were wallets); only the one that moves again is read again.
    code(fx, moves);
    code(fx, rests);
    fx.transfer(30, fx.usdc, moves, WALLETS[0]!, units(1, 6));
    const later = await entityBook(await fx.market(40));
    expect(later.isContract(moves)).toBe(true);
    expect(later.isContract(rests)).toBe(false);
  });
});

const CHAIN_USDC = tokenUsdc().usdc;
