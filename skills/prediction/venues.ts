/** The prediction skills' access to the venues: what this deployment reads them from, or a refusal before payment. */
import { SibylError } from '../core/errors.js';
import type { SkillContext } from '../core/context.js';
import type { PredictionSource } from './source.js';

/** The providers, each read through its own adapter. */
export const PREDICTION_PROVIDERS = ['polymarket', 'kalshi'] as const;
export type PredictionProvider = (typeof PREDICTION_PROVIDERS)[number];

/** `embedded`: the venue this process serves on loopback over the world's plan; `configured`: the real service at its URLs. */
export const VENUE_KINDS = ['embedded', 'configured'] as const;
export type VenueKind = (typeof VENUE_KINDS)[number];

/** The adapters (each names its origins for provenance) and which kind of venue each reads. */
export interface PredictionVenues extends PredictionSource {
  readonly kind: Readonly<Record<PredictionProvider, VenueKind>>;
  /** The plan the embedded venues stand on (seed, history origin), when either venue is embedded. */
  readonly plan?: { readonly seed: string; readonly origin: number };
}

/** The venues, or `domain_disabled` (503, nothing charged): skills call it in `admit`, before payment. */
export function predictionVenues(ctx: SkillContext): PredictionVenues {
  if (!ctx.prediction) throw new SibylError('domain_disabled', 'this deployment has no prediction-market venues (PREDICTION=off); nothing was charged', { reason: 'domain_disabled' });
  return ctx.prediction;
}
