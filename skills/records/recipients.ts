/**
 * Which listed company a federal contract's recipient is: USAspending names the legal entity that
 * signed (a subsidiary, often), so each ticker is matched by the names its contracting entities
 * go by. Reference facts about the companies, not world data; a recipient no pattern matches is
 * no listed ticker Sibyl covers (a watchlist candidate).
 */
import { EQUITIES, type Sector } from '../../lib/equities.js';

const PATTERNS: readonly (readonly [RegExp, string])[] = [
  [/\bMICROSOFT\b/, 'MSFT'],
  [/\bAMAZON(\.COM| WEB SERVICES)?\b/, 'AMZN'],
  [/\b(GOOGLE|ALPHABET)\b/, 'GOOGL'],
  [/\bNVIDIA\b/, 'NVDA'],
  [/^APPLE INC\b/, 'AAPL'],
  [/\b(META PLATFORMS|FACEBOOK)\b/, 'META'],
  [/^TESLA\b/, 'TSLA'],
  [/\bJPMORGAN\b/, 'JPM'],
  [/\bEXXON ?MOBIL\b/, 'XOM'],
  [/\b(JANSSEN|JOHNSON & JOHNSON)\b/, 'JNJ'],
  [/\bCOINBASE\b/, 'COIN'],
  [/\bMICROSTRATEGY\b/, 'MSTR'],
];

/** What USAspending's recipient search is asked for: one term per covered company. */
export const RECIPIENT_SEARCH_TERMS = ['MICROSOFT', 'AMAZON', 'GOOGLE', 'NVIDIA', 'APPLE INC', 'META PLATFORMS', 'TESLA', 'JPMORGAN', 'EXXONMOBIL', 'JANSSEN', 'COINBASE', 'MICROSTRATEGY'] as const;

export function tickerOfRecipient(recipient: string): string | null {
  const name = recipient.toUpperCase();
  return PATTERNS.find(([p]) => p.test(name))?.[1] ?? null;
}

export function sectorOf(ticker: string): Sector | 'other' {
  return EQUITIES[ticker]?.sector ?? 'other';
}
