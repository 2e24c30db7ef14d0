import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { addr, Fixture } from '../data/testing/fixtures.js';
import { opcodesIn, reviewContract } from './review.js';

const C = addr(0xc0de);
const IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';

describe('contract-review/v1', () => {
  it('walks opcodes over PUSH data: an 0xff inside a PUSH2 is data, a bare one is SELFDESTRUCT', () => {
    expect([...opcodesIn('0x61ffff00')]).toEqual([0x61, 0x00]);
    expect(opcodesIn('0x6001ff').has(0xff)).toBe(true);
  });

  it('a proxy whose owner can pause: high risk, with the implementation named and DELEGATECALL found', async () => {
    const fx = new Fixture();
    fx.code.set(C, '0x638456cb59f4'); // PUSH4 pause(), DELEGATECALL
    fx.answer(C, 'owner', () => addr(0x0e1));
    fx.storage.set(`${C}:${IMPLEMENTATION_SLOT}`, `0x${'00'.repeat(12)}${'ab'.repeat(20)}`);
    const r = await reviewContract(fx.chain(), C, 1n);
    expect(r).toMatchObject({ available: true, codeBytes: 6, risk: 'high', proxy: { implementation: getAddress(`0x${'ab'.repeat(20)}`), admin: null } });
    expect(r.available && r.findings).toEqual(['owner power: pause', `owner ${addr(0x0e1)} can still use them`, expect.stringContaining('upgradeable proxy')]);
    expect(r.available && r.opcodes.map((o) => o.name)).toEqual(['DELEGATECALL']);
  });

  it('renounced powers and no proxy: low risk', async () => {
    const fx = new Fixture();
    fx.code.set(C, '0x6340c10f19');
    fx.answer(C, 'owner', () => '0x0000000000000000000000000000000000000000');
    expect(await reviewContract(fx.chain(), C, 1n)).toMatchObject({ risk: 'low', findings: ['owner power: mint', 'ownership renounced'] });
  });

  it('no code: nothing to review', async () => {
    expect(await reviewContract(new Fixture().chain(), C, 1n)).toMatchObject({ available: false });
  });
});
