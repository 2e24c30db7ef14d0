/** The perp skills' access to the venue: what this deployment reads it from, or a refusal before payment. */
import { z } from 'zod';
import { SibylError } from '../core/errors.js';
import { isoTime } from '../core/outputs.js';
import type { SkillContext } from '../core/context.js';
import type { PerpSource } from './source.js';

/** The perp venue's provider: one adapter, Hyperliquid's API. */
export const PERP_PROVIDER = 'hyperliquid';

/** The adapter over the venue and which kind it reads: `embedded` (served by this process over its world) or `configured` (the real service). */
export interface PerpVenue extends PerpSource {
  readonly kind: 'embedded' | 'configured';
  /** The plan the embedded venue stands on (seed, history origin). */
  readonly plan?: { readonly seed: string; readonly origin: number };
}

export const NO_PERP_VENUE = 'this deployment has no perp venue (PERPS=off); nothing was charged';

/** The venue, or `domain_disabled` (503, nothing charged): skills call it in `admit`, before payment. */
export function perpVenue(ctx: SkillContext): PerpVenue {
  if (!ctx.perps) throw new SibylError('domain_disabled', NO_PERP_VENUE, { reason: 'domain_disabled' });
  return ctx.perps;
}

export const perpProvenanceShape = {
  source: z.string().describe('The venue read and how (embedded: served by this process over its world; configured: the real service).'),
  origins: z.record(z.string(), z.string()).describe('Each API read ("hyperliquid info", "hyperliquid stats") and its URL.'),
  methodology: z.string(),
};

export function perpProvenance(venue: PerpVenue, methodology: string) {
  return {
    source: `${PERP_PROVIDER} (${venue.kind})`,
    origins: { [`${PERP_PROVIDER} info`]: `${venue.urls.api}/info`, [`${PERP_PROVIDER} stats`]: `${venue.urls.stats}/Mainnet/leaderboard` },
    methodology,
  };
}

export const fetchedAtShape = z.object({ whales: isoTime, funding: isoTime }).describe('When each leg was read from the venue.');
