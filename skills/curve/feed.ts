/** The curve-* skills' access to the Solana launchpad feed. */
import type { CurveFeed } from '../../world/curve/feed.js';
import { SibylError } from '../core/errors.js';
import type { SkillContext } from '../core/context.js';

export function curveFeed(ctx: SkillContext): CurveFeed {
  if (!ctx.curve) throw new SibylError('chain_unavailable', 'this deployment has no Solana launchpad feed (CURVE_FEED=off); nothing was charged');
  return ctx.curve;
}
