/**
 * The listed companies tokenized stocks wrap, as public reference facts: ticker, company and
 * sector. The world simulates their prices from these names; the skills group and explain tokens
 * by them. Nothing here is a price or a simulated quantity.
 */

export type Sector = 'tech' | 'consumer' | 'finance' | 'energy' | 'health' | 'index';

export const SECTORS: readonly Sector[] = ['tech', 'consumer', 'finance', 'energy', 'health', 'index'];

export const EQUITIES: Readonly<Record<string, { readonly name: string; readonly sector: Sector }>> = {
  SPY: { name: 'S&P 500 index fund', sector: 'index' },
  AAPL: { name: 'Apple', sector: 'tech' },
  MSFT: { name: 'Microsoft', sector: 'tech' },
  NVDA: { name: 'NVIDIA', sector: 'tech' },
  TSLA: { name: 'Tesla', sector: 'consumer' },
  AMZN: { name: 'Amazon', sector: 'consumer' },
  META: { name: 'Meta Platforms', sector: 'tech' },
  GOOGL: { name: 'Alphabet', sector: 'tech' },
  JPM: { name: 'JPMorgan Chase', sector: 'finance' },
  XOM: { name: 'Exxon Mobil', sector: 'energy' },
  JNJ: { name: 'Johnson & Johnson', sector: 'health' },
  COIN: { name: 'Coinbase', sector: 'finance' },
  MSTR: { name: 'MicroStrategy', sector: 'tech' },
};
