/**
 * The part of `security/v1` that decides whether a token can be traded safely: the buy-and-sell
 * simulation (honeypot, taxes) and the owner powers in its bytecode, turned into scored
 * findings. The full scan (scan.ts) adds liquidity and deployer history to these; the screen
 * applied to every recommendation and ranking (../screening.ts) reads exactly these, so a
 * list and the rug-pull-scanner never disagree about a token.
 */
import type { Address } from 'viem';
import type { Market } from '../data/market.js';
import { ownerPowers, type OwnerPowers, type Power } from './powers.js';
import { simulateTrade, type Simulation } from './simulate.js';

/** Taxes at or above this are a finding (and fail the screen). */
export const HIGH_TAX_PCT = 10;

export interface Finding {
  severity: 'critical' | 'high' | 'medium' | 'low';
  points: number;
  finding: string;
}

export type Powers = OwnerPowers | { available: false; reason: string };

/** A trading finding and what it is about, so a rule can pick findings without reading their words. */
export interface TradeFinding extends Finding {
  subject: 'honeypot' | 'sell-tax' | 'buy-tax' | `power:${Power}`;
}

export interface TradeRisk {
  simulation: Simulation;
  powers: Powers;
  findings: TradeFinding[];
}

/** Simulates a round trip and reads owner powers at `block`; a node that does not answer throws (upstream_unavailable). */
export async function tradeRisk(market: Market, token: string, block: bigint): Promise<TradeRisk> {
  const t = token.toLowerCase();
  const [simulation, powers] = await Promise.all([simulateTrade(market, t, block), ownerPowers(market.chain, t as Address, block)]);
  return { simulation, powers, findings: tradeFindings(simulation, powers) };
}

/** An owner that still exists (not renounced, or no owner() to tell) can use the powers its code has. */
export function livePowers(powers: Powers): OwnerPowers['powers'] {
  return powers.available && powers.renounced !== true ? powers.powers : [];
}

export function tradeFindings(simulation: Simulation, powers: Powers): TradeFinding[] {
  const findings: TradeFinding[] = [];
  const add = (subject: TradeFinding['subject'], severity: Finding['severity'], points: number, finding: string) => findings.push({ subject, severity, points, finding });
  if (simulation.available) {
    if (simulation.buyReverted) add('honeypot', 'critical', 100, 'buying reverts: the token cannot be bought through its pools');
    else if (simulation.honeypot) add('honeypot', 'critical', 100, simulation.sellReverted ? 'honeypot: selling reverts' : `honeypot: a sell delivers ${simulation.sellTaxPct}% less than sent`);
    else {
      if ((simulation.sellTaxPct ?? 0) >= HIGH_TAX_PCT) add('sell-tax', 'high', 40, `sell tax ${simulation.sellTaxPct}%`);
      if ((simulation.buyTaxPct ?? 0) >= HIGH_TAX_PCT) add('buy-tax', 'high', 25, `buy tax ${simulation.buyTaxPct}%`);
    }
  }
  if (powers.available) {
    for (const power of livePowers(powers)) add(`power:${power}`, power === 'mint' || power === 'blacklist' ? 'high' : 'medium', 15, `owner can ${power} (${powers.functions.join(', ')})`);
  }
  return findings;
}
