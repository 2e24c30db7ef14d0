/** The graded-callers skill's access to the calls feed and the prices it grades with, or a refusal before payment. */
import { SibylError } from '../core/errors.js';
import type { SkillContext } from '../core/context.js';
import type { PriceReader } from './grading.js';
import type { CallsSource } from './source.js';

export interface CallsFeed extends CallsSource {
  readonly kind: 'embedded' | 'configured';
  /** The prices calls are graded with, and where they come from. */
  readonly prices: { readonly read: PriceReader; readonly from: string };
}

export const NO_CALLS_FEED = 'this deployment has no market callers\' feed (CALLS=off)';

export function callsFeed(ctx: SkillContext): CallsFeed {
  if (!ctx.calls) throw new SibylError('domain_disabled', `${NO_CALLS_FEED}; nothing was charged`, { reason: 'domain_disabled' });
  return ctx.calls;
}
