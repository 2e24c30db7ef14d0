/**
 * A token named by symbol with no chain: the report answers on the indexed chain where that
 * symbol is most liquid and says so; a named chain is kept. On the run's devnet of every chain
 * (genesis markets: LINK is listed on several).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestSibyl, walletPoster, type TestSibyl } from '../helpers/sibyl.js';

let sibyl: TestSibyl;
beforeAll(async () => {
  sibyl = await startTestSibyl();
});
afterAll(() => sibyl?.close());

async function ask(prompt: string) {
  const wallet = await walletPoster(sibyl.url, '2');
  const res = await wallet.post('/x402/svc/report', { prompt });
  const body = await json(res);
  expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
  return body;
}

describe('report: where a symbol is answered', () => {
  it('a symbol on several chains is answered where it is most liquid, and the answer says so first', async () => {
    const answer = await ask('Who holds most of LINK?');
    const used = answer.toolsUsed[0];
    expect(used.skill).toBe('holder-concentration');
    const note = /^LINK trades on (\d+) indexed chains; answered for (\w+), where it is most liquid \(\$([\d,]+) in its deepest pool; ([^)]*)\)/.exec(answer.analysis);
    expect(note, answer.analysis.slice(0, 300)).not.toBeNull();
    const [, count, chosen, best, others] = note!;
    const rest = others!.split(', ').map((o) => { const [chain, usd] = o.split(' $'); return { chain, usd: Number(usd!.replace(/,/g, '')) }; });
    expect(rest).toHaveLength(Number(count) - 1);
    for (const other of rest) expect(other.usd).toBeLessThanOrEqual(Number(best!.replace(/,/g, '')));
    expect(used.args.chain).toBe(chosen);
    expect(answer.results[0].result.chain).toBe(chosen);
  });

  it('a chain the question names is kept', async () => {
    const answer = await ask('Who holds most of LINK on arbitrum?');
    expect(answer.toolsUsed[0].args.chain).toBe('arbitrum');
    expect(answer.analysis).not.toMatch(/most liquid/);
  });
});

describe('report: the questions users were answered wrongly, on the chains they name', () => {
  // [question, the skill that answers it, its arguments]
  const cases: [string, string, Record<string, unknown>][] = [
    ['big wallets moving money on arbitrum past 7 days', 'whale-tracking', { chain: 'arbitrum', timeperiod: '7d' }],
    ['volume leaders on base last 24 hours', 'topvolume', { chain: 'base', timeperiod: '24h' }],
    ['biggest losers on bsc in 24h', 'top-gainers', { chain: 'bsc', timeperiod: '24h', side: 'losers' }],
    ['fresh pools launched on base in the last hour', 'latest-pairs', { chain: 'base' }],
    ['support/resistance and momentum for BNB daily', 'technical-analysis', { token: 'BNB', chain: 'bsc' }],
  ];
  for (const [question, skill, args] of cases) {
    it(question, async () => {
      const wallet = await walletPoster(sibyl.url, '2');
      const before = await wallet.balance();
      const res = await wallet.post('/x402/svc/report', { prompt: question });
      const body = await json(res);
      // Answered, or (a ranking nothing on this devnet qualifies for: nobody trades here) the same
      // answer unsold: 422 no_answer, not charged. Either way the question reached its skill.
      if (res.status === 422) {
        expect(body, JSON.stringify(body).slice(0, 300)).toMatchObject({ available: false, charged: false, error: { code: 'no_answer' } });
        expect(await wallet.balance()).toBe(before);
      } else expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
      expect(body.toolsUsed[0]).toEqual({ skill, args: expect.objectContaining(args) });
    });
  }

  it('a capability this deployment lacks (no engine; no Bitcoin chain) is named and refused, uncharged', async () => {
    for (const [question, title] of [['Make a short video of a rocket launch for our token', 'Video generation'], ['MVRV and where are we in the bitcoin cycle', 'Bitcoin on-chain analytics']]) {
      const wallet = await walletPoster(sibyl.url, '2');
      const before = await wallet.balance();
      const res = await wallet.post('/x402/svc/report', { prompt: question });
      expect(res.status).toBe(422);
      expect((await json(res)).error.message).toMatch(new RegExp(`${title}.*nothing was charged`, 's'));
      expect(await wallet.balance()).toBe(before);
    }
  });
});
