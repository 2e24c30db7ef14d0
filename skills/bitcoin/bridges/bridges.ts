/**
 * bitcoin-bridge-comparison: wrapped BTC on the EVM chains compared token by token — supply and
 * holders per chain, custody model and fees (shipped, sourced), mint/burn flows, peg deviation of
 * every DEX pool, and proof of reserves against the custodian's BTC on the Bitcoin chain.
 */
import { z } from 'zod';
import { admitAnyMarket } from '../../core/admission.js';
import { multiChainProvenance, readEach, scanChains } from '../../core/across-chains.js';
import type { SkillContext } from '../../core/context.js';
import { custodyOf, feesOf, WRAPPED_BTC_CUSTODY } from './custody.js';
import { proofOfReserves } from './reserves.js';
import { BRIDGES_METHODOLOGY, applyMarketReference, chainProvenance, readWrappedOnChain, sumSupply, weightedDeviation, type BtcReference, type WrappedOnChain } from './engine.js';
import { loadMarket } from '../../data/load.js';
import { address, chainGap, coverage, multiChainProvenanceShape, provenanceShape } from '../../core/outputs.js';
import { DEX_CHAINS, rowsParam, TOOL_ROWS } from '../../core/params.js';
import { defineSkill } from '../../core/registry.js';

const flowShape = z.object({
  minted: z.string().describe('Whole tokens minted (Transfer from the zero address).'),
  burned: z.string().describe('Whole tokens burned (Transfer to the zero address).'),
  net: z.string(), mints: z.number().int(), burns: z.number().int(), coverage,
});

const referenceShape = z.object({ usd: z.number(), source: z.string() }).nullable().describe('BTC/USD the peg is measured against: the Bitcoin price feed at the checkpoint\'s time, else the market\'s liquidity-weighted consensus of the wrapped tokens; null without either.');

const chainRow = z.object({
  ...provenanceShape,
  token: address, decimals: z.number().int(),
  totalSupply: z.string().describe('totalSupply at the checkpoint, whole tokens.'),
  holders: z.number().int().nullable().describe('Addresses with a positive balance (pools included); null when the index lacks the token\'s full history.'),
  holdersNote: z.string().nullable(),
  flows: z.object({ '24h': flowShape, '7d': flowShape }),
  peg: z.object({
    deviationBps: z.number().nullable().describe('Liquidity-weighted mean of the pools\' deviations from the reference, basis points.'),
    reference: referenceShape,
    poolsFound: z.number().int(),
    pools: z.array(z.object({ pool: address, dex: z.string(), pair: z.string(), quote: z.string(), priceUsd: z.number(), liquidityUsd: z.number(), deviationBps: z.number() })).describe('Most liquid first, up to limit.'),
  }),
});

const tokenRow = z.object({
  symbol: z.string(),
  custody: z.object({ name: z.string(), model: z.enum(['custodial', 'threshold-signers']), custodian: z.string(), mechanism: z.string(), proofOfReserves: z.string(), source: z.string() }),
  fees: z.object({ mintPct: z.number().nullable(), redeemPct: z.number().nullable(), note: z.string(), source: z.string() }).describe('Published fees; null where no fixed rate is published (the note says what applies).'),
  totalSupply: z.string().describe('Summed over the chains read, whole tokens.'),
  pegDeviationBps: z.number().nullable().describe('Liquidity-weighted over every pool on every chain read.'),
  chains: z.array(chainRow),
  reserves: z.object({
    available: z.boolean(), reason: z.string().nullable(),
    btc: z.string().nullable().describe('Confirmed BTC in the custodian\'s published addresses.'),
    wrapped: z.string().describe('Wrapped supply summed over the chains read.'),
    wrappedChains: z.array(z.string()).describe('The chains summed; supply on chains this deployment does not connect is not in wrapped (the ratio then reads high).'),
    ratio: z.number().nullable().describe('btc / wrapped: 1 fully backed, above over-collateralised (or supply on chains not read), below short.'),
    wrappedComplete: z.boolean().describe('False when a chain could not be read, so the wrapped sum is partial.'),
    custodians: z.array(z.string()),
    addresses: z.array(z.object({ address: z.string(), btc: z.string() })).describe('Most BTC first, up to limit.'),
    addressCount: z.number().int(),
    bitcoin: z.object({ kind: z.enum(['embedded', 'esplora']), esplora: z.string(), tipHeight: z.number().int() }).nullable().describe('Where the Bitcoin figures come from (the Esplora API read, at its tip).'),
  }),
});

const otherModels = z.array(z.object({ symbol: z.string(), name: z.string(), model: z.string(), custodian: z.string(), source: z.string() }));

/** BTC/USD from the Bitcoin source's price feed at a time, where the deployment has one. */
function feedReference(ctx: SkillContext): (ts: number) => BtcReference | null {
  const prices = ctx.bitcoin?.prices;
  return (ts) => {
    const usd = prices?.at(ts) ?? null;
    return prices && usd ? { usd, source: `BTC/USD from ${prices.source} at the checkpoint's time` } : null;
  };
}

const fmt = (bps: number | null) => (bps === null ? 'n/a' : `${bps > 0 ? '+' : ''}${bps} bps`);

export const bitcoinBridgeComparisonSkill = defineSkill({
  id: 'bitcoin-bridge-comparison',
  title: 'Bitcoin bridge comparison',
  description: 'Wrapped BTC on the EVM chains compared: per token and chain its supply, holders and 24 h / 7 d mint and burn flows from the index; the custody model and mint/redeem fees (sourced table); peg deviation of every DEX pool against BTC\'s reference price (basis points, liquidity-weighted); and proof of reserves — the custodian\'s confirmed BTC on the Bitcoin chain against the wrapped supply.',
  tags: ['bitcoin', 'wbtc', 'btcb', 'bridge', 'wrapped-btc', 'peg', 'proof-of-reserves', 'custody'],
  examples: ['Which wrapped BTC is safest?', 'Is WBTC fully backed and on peg?', 'Compare WBTC and BTCB supply and mint flows'],
  input: z.strictObject({ limit: rowsParam(TOOL_ROWS) }),
  price: '0.50',
  toolName: 'bitcoin_bridge_comparison',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...multiChainProvenanceShape,
    tokens: z.array(tokenRow).describe('Each wrapped BTC found on the chains read.'),
    notIndexed: otherModels.describe('Wrapped BTCs of the custody table with no pool on any chain read (their model, for comparison).'),
    errors: z.array(chainGap).describe('Chains that could not be read.'),
  }),
  summarize: (r) => {
    const tokens = r.tokens as z.infer<typeof tokenRow>[];
    if (!tokens.length) return 'No wrapped BTC has a pool on the chains read.';
    return tokens.map((t) => {
      const res = t.reserves.available ? `reserves ${t.reserves.btc} BTC, ratio ${t.reserves.ratio}` : 'reserves not readable';
      return `${t.symbol} (${t.custody.model}, ${t.custody.custodian.split(/[;(]/)[0]!.trim()}): ${t.totalSupply} on ${t.chains.map((c) => c.chain).join(', ')}, peg ${fmt(t.pegDeviationBps)}, 7 d minted ${t.chains.reduce((s, c) => s + Number(c.flows['7d'].minted), 0)} / burned ${t.chains.reduce((s, c) => s + Number(c.flows['7d'].burned), 0)}, ${res}`;
    }).join('; ') + '.';
  },
  admit: (_input, ctx) => admitAnyMarket(ctx, scanChains(ctx, undefined, DEX_CHAINS)),
  async handler(input, ctx) {
    const reference = feedReference(ctx);
    const { done, errors } = await readEach(scanChains(ctx, undefined, DEX_CHAINS), async (name) => {
      const { market, checkpoint } = await loadMarket(ctx, name);
      return { rows: await readWrappedOnChain(market, checkpoint, reference), provenance: await chainProvenance(market, checkpoint) };
    });
    const rows = done.flatMap((d) => d.value.rows);
    applyMarketReference(rows);
    const provenanceOf = new Map(done.map((d) => [d.name as string, d.value.provenance]));
    const symbols = [...new Set(rows.map((r) => r.symbol))];
    const tokens = [];
    for (const symbol of symbols) {
      const mine = rows.filter((r) => r.symbol === symbol);
      const wrapped = sumSupply(mine);
      const custody = custodyOf(symbol)!;
      const fees = feesOf(symbol)!;
      tokens.push({
        symbol,
        custody: { name: custody.name, model: custody.model, custodian: custody.custodian, mechanism: custody.mechanism, proofOfReserves: custody.proofOfReserves, source: custody.source },
        fees: { mintPct: fees.mintPct, redeemPct: fees.redeemPct, note: fees.note, source: fees.source },
        totalSupply: wrapped,
        pegDeviationBps: weightedDeviation(mine.flatMap((r) => r.pools)),
        chains: mine.map((r) => chainAnswer(r, provenanceOf.get(r.chain)!, input.limit)),
        reserves: await proofOfReserves(ctx.bitcoin, symbol, { amount: wrapped, chains: mine.map((r) => r.chain), complete: errors.length === 0 }, input.limit),
      });
    }
    const chainsRead = done.map((d) => d.value.provenance);
    return {
      ...multiChainProvenance(chainsRead, BRIDGES_METHODOLOGY),
      tokens: tokens.slice(0, input.limit),
      notIndexed: WRAPPED_BTC_CUSTODY.filter((c) => !symbols.includes(c.symbol)).map((c) => ({ symbol: c.symbol, name: c.name, model: c.model, custodian: c.custodian, source: c.source })),
      errors,
    };
  },
});

function chainAnswer(r: WrappedOnChain, provenance: Awaited<ReturnType<typeof chainProvenance>>, limit: number) {
  return {
    ...provenance,
    token: r.token, decimals: r.decimals, totalSupply: r.totalSupply, holders: r.holders, holdersNote: r.holdersNote, flows: r.flows,
    peg: { deviationBps: r.pegDeviationBps, reference: r.reference, poolsFound: r.pools.length, pools: r.pools.slice(0, limit) },
  };
}
