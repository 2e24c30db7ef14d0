import { indexProvenance } from '../data/provenance.js';
import { resolveToken } from '../data/resolve.js';
import { SECURITY_METHODOLOGY, scanToken } from './scan.js';
import { tokenOnChainInput } from '../core/params.js';
import { z } from 'zod';
import { provenanceShape, securityScanShape, tokenRef } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { admitToken } from '../core/admission.js';
import { loadMarket } from '../data/load.js';

export const rugPullScannerSkill = defineSkill({
  id: 'security-scan',
  title: 'Token security scan',
  description: 'Rug-pull and honeypot verdict on a token, factor by factor: a simulated buy and sell (taxes, sell blocked), owner powers in its bytecode (mint, blacklist, pause, fees, upgradeable proxy), whether its liquidity was pulled or one wallet can pull it (LP not locked), holder concentration, pool depth, how much and how long it has traded, and the deployer\'s other tokens; each factor with its value, threshold and source, and a risk level and score by one stated rule.',
  tags: ['security', 'honeypot', 'rug-pull', 'tokens'],
  examples: ['Is token 0x... on base a honeypot?', 'Rug-pull check for this token on bsc', 'Will I be able to sell this token once I buy it?', 'Can the LP of this token be pulled?'],
  input: tokenOnChainInput,
  price: '0.55',
  httpPath: '/x402/data/rug-pull-scanner',
  toolName: 'rug_pull_scan',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  catalog: { rateLimitPerMinute: 20, timeTargetSeconds: 30 },
  // The level, then the factors that fired (worst first), and the LP factor always: whether the liquidity can be pulled is the first rug question.
  summarize: (r) => {
    const fired = (r.findings as { finding: string }[]).slice(0, 4).map((f) => f.finding);
    const lp = (r.factors as { factor: string; finding: string }[]).find((f) => f.factor === 'lp-lock');
    return `${r.token?.symbol ?? 'Token'}: risk ${r.verdict} (${r.riskScore}/100); honeypot ${r.honeypot === null ? 'not determined' : r.honeypot ? 'yes' : 'no'}; rugged ${r.rugged ? 'yes' : 'no'}. ` +
      `Findings: ${fired.join('; ') || 'none'}.${lp && !fired.includes(lp.finding) ? ` ${lp.finding}.` : ''}`;
  },
  output: z.object({ ...provenanceShape, token: tokenRef, ...securityScanShape }),
  admit: (input, ctx) => admitToken(ctx, input.chain, input.tokenAddress),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    const token = resolveToken(market, input.tokenAddress);
    const info = market.tokens.get(token)!;
    return {
      ...indexProvenance(chain, checkpoint, SECURITY_METHODOLOGY, 0),
      token: { address: info.address, symbol: info.symbol, name: info.name },
      ...(await scanToken(market, token)),
    };
  },
});
