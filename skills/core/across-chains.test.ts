import { describe, expect, it } from 'vitest';
import { SibylError } from './errors.js';
import { acrossChains, scanChains } from './across-chains.js';
import type { SkillContext } from './context.js';
import { claimableAirdropsSkill } from '../airdrops/airdrops.js';
import { forgottenAssetsSkill } from '../forgotten/forgotten.js';
import { vaultsListSkill, yieldDiscoverSkill } from '../vaults/vaults.js';

const ctx = { chains: { list: () => ['base', 'ethereum', 'zksync'].map((name) => ({ name })) } } as unknown as SkillContext;
const read = (chain: string, timestamp: string) => ({ chain, source: 'embedded', asOf: { timestamp } });

describe('wallet scans across chains', () => {
  it('a scan without a chain reads every connected chain it can (no default chain sneaks in)', () => {
    const address = '0x1111111111111111111111111111111111111111';
    for (const skill of [forgottenAssetsSkill, claimableAirdropsSkill, vaultsListSkill, yieldDiscoverSkill]) expect((skill.input.parse(skill.id.includes('vault') || skill.id.includes('yield') ? {} : { address }) as { chain?: string }).chain, skill.id).toBeUndefined();
    expect(scanChains(ctx, undefined, ['base', 'ethereum', 'bsc'])).toEqual(['base', 'ethereum']);
    expect(scanChains(ctx, 'bsc', ['base', 'bsc'])).toEqual(['bsc']);
  });

  it('lists the chains it could not read, in the order asked, and refuses when none could be read', async () => {
    const scan = await acrossChains(['base', 'ethereum', 'bsc'], async (name) => {
      if (name === 'ethereum') throw new SibylError('upstream_unavailable', 'ethereum is not indexed yet');
      if (name === 'bsc') throw new Error('socket hang up');
      return read(name, '2026-01-01T00:00:00.000Z');
    }, 'm/v1');
    expect(scan).toMatchObject({ source: 'embedded', methodology: 'm/v1', chains: [{ chain: 'base' }] });
    expect(scan.errors.sort((a, b) => a.chain.localeCompare(b.chain))).toEqual([
      { chain: 'bsc', reason: 'the chain could not be read' },
      { chain: 'ethereum', reason: 'ethereum is not indexed yet' },
    ]);
    const later = await acrossChains(['ethereum', 'base'], async (name) => read(name, name === 'base' ? '2026-01-02T00:00:00.000Z' : '2026-01-01T00:00:00.000Z'), 'm/v1');
    expect(later.chains.map((c) => c.chain)).toEqual(['ethereum', 'base']);
    expect(later.asOf.timestamp).toBe('2026-01-02T00:00:00.000Z');
    await expect(acrossChains(['base'], async () => { throw new Error('down'); }, 'm/v1')).rejects.toMatchObject({ code: 'upstream_unavailable' });
  });
});
