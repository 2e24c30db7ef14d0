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
