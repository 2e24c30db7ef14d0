/** The demo accounts are the standard development mnemonic's (derived from one parent node). */
import { expect, it } from 'vitest';
import { demoAccount } from '../../chain/accounts.js';

it('derives the well-known anvil accounts', () => {
  expect(demoAccount(0).address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
  expect(demoAccount(1).address).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
  expect(demoAccount(9).address).toBe('0xa0Ee7A142d267C1f36714E4a8F75612F20a79720');
});
