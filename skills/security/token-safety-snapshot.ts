/** The token-safety dataset: the security scan of every indexed token with a pool, keyed `chain:address`. */
import { scanToken } from './scan.js';
import type { SkillContext } from '../core/context.js';
import { indexSource, loadAllMarkets } from '../data/load.js';

/** The token-safety dataset: every indexed token with a pool, scanned; keyed `chain:address`. */
export async function tokenSafety(ctx: SkillContext) {
  const { loaded, unavailable } = await loadAllMarkets(ctx);
  const rows: Record<string, unknown> = {};
  for (const l of loaded) {
    const quotes = new Set([l.chain.spec.usdc.toLowerCase(), l.chain.spec.wrappedNative.toLowerCase()]);
    for (const token of l.market.tokens.keys()) {
      if (quotes.has(token)) continue;
      try {
        const scan = await scanToken(l.market, token);
        rows[`${l.chain.name}:${token}`] = {
          honeypot: scan.honeypot,
          riskLevel: scan.verdict,
          flags: scan.findings.map((f) => f.finding),
          result: { riskScore: scan.riskScore, rugged: scan.rugged, findings: scan.findings, source: indexSource(l) },
        };
      } catch {
        // Left out: a token the scan cannot read is "not screened", which the tool says.
      }
    }
  }
  return { rows, chains: loaded.map((l) => l.chain.name), unavailable };
}
