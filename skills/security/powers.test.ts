import { zeroAddress, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { addr, Fixture } from '../data/testing/fixtures.js';
import { ownerPowers } from './powers.js';

const TOKEN = addr(0x70c);
// Selectors worked out once with keccak256 (and well known): mint(address,uint256) 40c10f19,
// transfer(address,uint256) a9059cbb, pause() 8456cb59, blacklist(address) f9f92be4.
const PUSH4 = (selector: string) => `63${selector}`;
/** A PUSH32 whose data happens to hold the bytes of "PUSH4 pause()": data, not an instruction. */
const PUSH32_HIDING_PAUSE = `7f${PUSH4('8456cb59')}${'00'.repeat(27)}`;

function chainWith(code: Hex | undefined, owner: (() => unknown) | null) {
  const fx = new Fixture();
  if (code) fx.code.set(TOKEN, code);
  if (owner) fx.answer(TOKEN, 'owner', owner);
  return fx.chain();
}

describe('security/v2 owner powers', () => {
  it('reads PUSH4 operands, skips push data, and names the owner', async () => {
    const code = `0x6080604052${PUSH4('a9059cbb')}14${PUSH4('40c10f19')}${PUSH32_HIDING_PAUSE}${PUSH4('f9f92be4')}00` as Hex;
    const r = await ownerPowers(chainWith(code, () => addr(0x0e1)), TOKEN, 5n);
    expect(r).toEqual({ available: true, powers: ['mint', 'blacklist'], functions: ['mint(address,uint256)', 'blacklist(address)'], owner: addr(0x0e1), renounced: false });
  });

  it('pause as a real PUSH4; a renounced owner', async () => {
    const r = await ownerPowers(chainWith(`0x${PUSH4('8456cb59')}00` as Hex, () => zeroAddress), TOKEN, 5n);
    expect(r).toMatchObject({ powers: ['pause'], renounced: true });
  });

  it('no owner() at all: owner unknown, not renounced', async () => {
    const r = await ownerPowers(chainWith(`0x${PUSH4('a9059cbb')}` as Hex, null), TOKEN, 5n);
    expect(r).toEqual({ available: true, powers: [], functions: [], owner: null, renounced: null });
  });

  it('no code: not determined, with the reason', async () => {
    expect(await ownerPowers(chainWith(undefined, null), TOKEN, 5n)).toEqual({ available: false, reason: 'no contract code at this address' });
  });
});
