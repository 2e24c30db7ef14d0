/**
 * The time periods (docs/skills.md, "Charts and coverage") and how each is charted: the window it covers and the
 * candle it is cut into. Skills project their `timeperiod` enums from this table.
 */
export const PERIODS = {
  '1h': { seconds: 3_600, candleSeconds: 60 },
  '4h': { seconds: 14_400, candleSeconds: 300 },
  '12h': { seconds: 43_200, candleSeconds: 900 },
  '24h': { seconds: 86_400, candleSeconds: 1_800 },
  '7d': { seconds: 604_800, candleSeconds: 14_400 },
  '14d': { seconds: 1_209_600, candleSeconds: 28_800 },
  '30d': { seconds: 2_592_000, candleSeconds: 86_400 },
} as const;

export type Period = keyof typeof PERIODS;
export const PERIOD_NAMES = Object.keys(PERIODS) as [Period, ...Period[]];
