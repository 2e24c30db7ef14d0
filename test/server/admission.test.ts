/**
 * Admission in process: the refusals a request gets before payment when the deployment, not the
 * chain catalogue, decides (a chain connected but not indexed yet, a skill without its engine, the
 * report agent, curve feed or forecasting switched off). Statuses and codes as docs/protocols.md lists them.
 */
import { describe, expect, it } from 'vitest';
import { ChainRuntime } from '../../chain/runtime.js';
import { SibylError } from '../../skills/core/errors.js';
import { admit } from '../../skills/core/admission.js';
import type { SkillContext } from '../../skills/core/context.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { MemoryStore } from '../../store/memory.js';

const registry = createRegistry();

/** A deployment connected to base (an address nothing answers on: admission must not call it) whose index is still empty. */
function unindexed(): SkillContext {
  const chains = new ChainRuntime();
  chains.add('base', 'http://127.0.0.1:9', 'rpc');
  return { chains, store: new MemoryStore() };
}

async function refusal(skillId: string, body: Record<string, unknown>, ctx: SkillContext): Promise<SibylError> {
  const skill = registry.byId(skillId)!;
  const input = skill.input.parse(body);
  const err = await admit(skill, input, ctx).then(() => null, (e: unknown) => e);
  expect(err, skillId).toBeInstanceOf(SibylError);
  return err as SibylError;
}

describe('admission', () => {
  it.each([
    ['latest-pairs', { chain: 'base' }],
    ['tokenchart', { tokenAddress: 'WETH' }],
    ['top-tokens', {}],
    ['investment-report', { chains: ['base'] }],
  ])('%s on a connected chain whose index is still empty → 503 upstream_unavailable', async (id, body) => {
    const err = await refusal(id, body, unindexed());
    expect([err.code, err.status]).toEqual(['upstream_unavailable', 503]);
  });

  it('a chain not connected here → 503 chain_unavailable, whether the catalogue gives it DEXes or not', async () => {
    for (const chain of ['ethereum', 'zksync', 'solana']) {
      const err = await refusal('latest-pairs', { chain }, unindexed());
      expect([err.code, err.status], chain).toEqual(['chain_unavailable', 503]);
    }
  });

  it('a capability without its engine → 503 domain_disabled', async () => {
    const planned = registry.unavailable()[0]!;
    const err = await refusal(planned.id, {}, unindexed());
    expect([err.code, err.status]).toEqual(['domain_disabled', 503]);
  });

  it('providers switched off: no report agent → 503 upstream_unavailable, no curve feed → 503 chain_unavailable, no forecasting → 503 forecast_unavailable', async () => {
    expect((await refusal('general-analysis', { prompt: 'hello' }, unindexed())).code).toBe('upstream_unavailable');
    expect((await refusal('curve-launches', {}, unindexed())).code).toBe('chain_unavailable');
    expect((await refusal('tokenchart', { tokenAddress: 'WETH', forecast: true }, unindexed())).code).toBe('forecast_unavailable');
    expect((await refusal('chart-forecast', { token: 'WETH' }, unindexed())).code).toBe('forecast_unavailable');
  });
});
