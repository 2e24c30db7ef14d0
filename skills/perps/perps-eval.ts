/**
 * The perp detectors against the venue's own labels (the plan's roles): perp smart money is the
 * skilled whales the venue can read (a lucky retail account is a false positive; an unreadable
 * skilled one is reported unread, never expected), and the perp whales are the whale accounts of
 * $500k or more on the leaderboard (a market maker among them is a false positive). Read through
 * the adapter over HTTP, as the skills read it.
 */
import type { PerpSource } from './source.js';
import { perpSmartMoney } from './smart-money.js';
import { WHALE_MIN_ACCOUNT_USD, readWhales } from './whales.js';

export interface PerpLabel {
  readonly user: string;
  readonly role: 'whale-skilled' | 'whale-poor' | 'market-maker' | 'retail';
  readonly unreadable: boolean;
}

export interface PerpDetections {
  readonly perpSmartMoney: { predicted: Set<string>; actual: Set<string> };
  readonly perpWhales: { predicted: Set<string>; actual: Set<string> };
  /** Market makers the whales' reading set apart, and how many of them the venue's leaderboard holds at whale size. */
  readonly marketMakers: { setApart: number; atWhaleSize: number; countedAsWhales: number };
}

/** `labels`: every account the venue holds, with its role. */
export async function evaluatePerps(source: PerpSource, labels: readonly PerpLabel[], now: number): Promise<PerpDetections> {
  const role = new Map(labels.map((l) => [l.user.toLowerCase(), l]));
  const board = await source.leaderboard();
  const smart = await perpSmartMoney(source, { since: now - 86_400, limit: 100 });
  const bigEnough = board.filter((r) => r.accountValue >= WHALE_MIN_ACCOUNT_USD);
  const whales = await readWhales(source, bigEnough.length);
  const found = whales.walked.filter((w) => !w.marketMaker).map((w) => w.row.user);
  const isWhale = (user: string) => role.get(user)?.role.startsWith('whale') ?? false;
  return {
    perpSmartMoney: {
      predicted: new Set(smart.traders.map((t) => t.address)),
      actual: new Set(labels.filter((l) => l.role === 'whale-skilled' && !l.unreadable).map((l) => l.user.toLowerCase())),
    },
    perpWhales: { predicted: new Set(found), actual: new Set(bigEnough.map((r) => r.user).filter(isWhale)) },
    marketMakers: {
      setApart: whales.walked.filter((w) => w.marketMaker).length,
      atWhaleSize: bigEnough.filter((r) => role.get(r.user)?.role === 'market-maker').length,
      countedAsWhales: found.filter((u) => role.get(u)?.role === 'market-maker').length,
    },
  };
}
