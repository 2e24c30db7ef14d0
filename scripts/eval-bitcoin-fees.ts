/**
 * `npm run eval:fees -- [--seed S] [--days D] [--heights N] [--json]`: builds the embedded Bitcoin
 * chain for a seed, and at N heights spread over its dense era serves the chain as it stood then
 * (the mempool of that moment) to bitcoin-mempool-intelligence's engine, which sees only that
 * Esplora API. Each recommendation for 1, 2, 3, 6 and 144 blocks is checked against what the next
 * blocks really included (the world's labels): hit rate, beside the server's own /fee-estimates
 * and the 1 sat/vB floor (the base rate), and the median overpayment.
 */
import { parseArgs } from 'node:util';
import { evaluateFees, spreadHeights } from '../skills/bitcoin/mempool/eval.js';
import { serveEsplora, startEmbeddedBitcoin } from '../world/bitcoin/index.js';
import { ReferencePaths } from '../world/reference.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: 'sibyl' },
    days: { type: 'string', default: '7' },
    heights: { type: 'string', default: '120' },
    origin: { type: 'string', default: '1790000000' },
    json: { type: 'boolean', default: false },
  },
});

const seed = values.seed!;
const days = Number(values.days);
const origin = Number(values.origin);
const started = Date.now();
const btc = await startEmbeddedBitcoin({ seed, days, origin, reference: new ReferencePaths(seed, origin), port: 0, liveBlocks: false });
try {
  const { labels } = btc;
  // Leave a day at the start (recent blocks to learn from) and 144 blocks at the end (to see what cleared).
  const heights = spreadHeights(labels.denseFromHeight + 144, labels.tipHeight - 144, Number(values.heights));
  const scores = await evaluateFees({ serveAt: (h) => serveEsplora(btc.chain, { asOfHeight: h, port: 0 }), blocks: labels.blocks, heights });
  if (values.json) {
    console.log(JSON.stringify({ seed, days, origin, heights: heights.length, scores }, null, 1));
  } else {
    console.log(`bitcoin fee recommendations, seed ${seed}, ${days} days, ${heights.length} heights (${heights[0]}-${heights.at(-1)}), ${Math.round((Date.now() - started) / 1000)} s`);
    console.log('target  samples  hit: sibyl  server  floor(1 sat/vB)   median overpay: sibyl  server');
    for (const s of scores) {
      console.log(`${String(s.target).padStart(6)}  ${String(s.samples).padStart(7)}  ${s.hitRate.sibyl.toFixed(3).padStart(10)}  ${(s.hitRate.server?.toFixed(3) ?? 'n/a').padStart(6)}  ${s.hitRate.floor.toFixed(3).padStart(15)}  ${s.medianOverpay.sibyl.toFixed(2).padStart(21)}  ${(s.medianOverpay.server?.toFixed(2) ?? 'n/a').padStart(6)}`);
    }
  }
} finally {
  await btc.close();
}
