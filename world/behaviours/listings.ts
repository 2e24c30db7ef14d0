/**
 * Roughly every 10 simulated hours a creator lists a new token with most of its supply as
 * liquidity; some are traps (honeypots that cannot be sold, sell-taxed tokens, owner powers) and
 * some are planned rugs (pulled by rug-pulls.ts). A chain's opening listings come faster (one
 * every 4 hours, a launch wave), so even a short history holds an honest listing, each trap and a
 * rug (tests and demos pick them from the labels).
 */
import { encodeFunctionData, parseEther, type Address } from 'viem';
import { DemoToken, OwnerPowersToken, SellTaxToken, SibylV2Router } from '../../chain/artifacts/index.js';
import { CHAINS, EVM_CHAIN_NAMES, type EvmChainName } from '../../chain/chains.js';
import { FAR_DEADLINE, GAS } from '../gas.js';
import { pairAddress, type Pool } from '../market.js';
import type { TokenInfo } from '../world.js';
import type { MarketBehaviour, MarketHost } from './behaviour.js';

export interface Listing {
  token: TokenInfo;
  creator: Address;
  pool: Pool;
  /** LP tokens the creator received: sqrt(amount0 * amount1) minus the locked minimum. */
  lp: bigint;
  /** When the creator pulls the liquidity (undefined: never, or already pulled). */
  rugAt?: number | undefined;
}

export interface ListingLabels {
  /** Every token the world created after genesis (listings and launchpad curves), and its pair once it has one. */
  tokens: { token: Address; symbol: string; kind: 'listing' | 'honeypot' | 'taxed' | 'owner-powers' | 'launchpad' | 'genesis'; creator: Address; pair: Address | null; rug: boolean }[];
}

export function emptyListingLabels(): ListingLabels {
  return { tokens: [] };
}

/** A chain's first listings, in order: every kind, and a rug. Later ones are drawn. */
const OPENING_LISTINGS: readonly { kind: 'listing' | 'honeypot' | 'taxed' | 'owner-powers'; rug: boolean }[] = [
  { kind: 'listing', rug: false },
  { kind: 'honeypot', rug: false },
  { kind: 'listing', rug: true },
  { kind: 'taxed', rug: false },
  { kind: 'owner-powers', rug: false },
];

/**
 * The number in a new token's symbol: unique across the chains of one world (they interleave),
 * so one symbol never names two different tokens, as it would look like one asset at two prices.
 */
export function symbolNumber(chain: EvmChainName, n: number): number {
  return (n - 1) * EVM_CHAIN_NAMES.length + EVM_CHAIN_NAMES.indexOf(chain) + 1;
}

type SavedListing = { token: Address; creator: Address; pair: Address; lp: string; rugAt: number | null };

export class Listings implements MarketBehaviour {
  readonly name = 'listings';
  readonly all: Listing[] = [];
  /** The listing made in the block being assembled, if any: snipers buy it in that very block. */
  fresh: Listing | undefined;

  step(host: MarketHost, t: number, dt: number): void {
    this.fresh = undefined;
    const meanHours = this.all.length < OPENING_LISTINGS.length ? 4 : 10;
    if (!host.rng.chance((dt / 3600) / meanHours)) return;
    const n = host.nextListingNumber();
    const creator = host.actorAddress('creator', n);
    host.queueBalance(creator, parseEther('10000000'));
    const roll = host.rng.next();
    const opening = OPENING_LISTINGS[this.all.length];
    const kind: TokenInfo['kind'] = opening?.kind ?? (roll < 0.45 ? 'listing' : roll < 0.65 ? 'honeypot' : roll < 0.8 ? 'taxed' : 'owner-powers');
    const virtual = host.chain === 'base' && host.rng.chance(0.4) ? host.tokens().find((x) => x.symbol === 'VIRTUAL') : undefined;
    const quote = virtual ?? host.native;
    const symbol = `${kind === 'listing' ? 'NEW' : kind === 'honeypot' ? 'HONEY' : kind === 'taxed' ? 'TAX' : 'OWN'}${symbolNumber(host.chain, n)}`;
    const supply = parseEther('1000000000');
    const token = kind === 'honeypot' || kind === 'taxed'
      ? host.deploy(SellTaxToken.abi, SellTaxToken.bytecode, [`${symbol} Token`, symbol, supply, kind === 'taxed' ? 2_500 : 0, kind === 'honeypot'], creator)
      : kind === 'owner-powers'
        ? host.deploy(OwnerPowersToken.abi, OwnerPowersToken.bytecode, [`${symbol} Token`, symbol, supply], creator)
        : host.deploy(DemoToken.abi, DemoToken.bytecode, [`${symbol} Token`, symbol, 18, supply, creator], creator);
    const info: TokenInfo = { symbol, address: token, decimals: 18, quote: quote.address, kind, regime: 1, regimeUntil: t + 86_400, tradeable: true, listedAt: t };
    host.addToken(info);

    // Liquidity: most of the supply against $20k-$120k of the quote asset.
    const quoteUsd = host.rng.logUniform(20_000, 120_000);
    const quoteAmount = host.toRaw(quote, quoteUsd);
    const tokenAmount = (supply * 8n) / 10n;
    host.fundToken(creator, quote.address, quoteAmount);
    host.credit(creator, token, supply);
    const router = host.routers[0]!;
    host.approve(creator, token, router);
    host.approve(creator, quote.address, router);
    host.queue({ from: creator, to: router, data: encodeFunctionData({ abi: SibylV2Router.abi, functionName: 'addLiquidity', args: [token, quote.address, tokenAmount, quoteAmount, 0n, 0n, creator, FAR_DEADLINE] }), gas: GAS.addLiquidity });
    const pair = pairAddress(CHAINS[host.chain].dexes[0]!.factory, token, quote.address);
    if (kind === 'honeypot' || kind === 'taxed') {
      host.queue({ from: creator, to: token, data: encodeFunctionData({ abi: SellTaxToken.abi, functionName: 'setPool', args: [pair, true] }), gas: GAS.approve });
    }
    const [token0, token1] = token.toLowerCase() < quote.address.toLowerCase() ? [token, quote.address] : [quote.address, token];
    const pool = host.market.add({ pair, dex: 0, token0, token1, r0: 0n, r1: 0n });
    if (token0 === token) { pool.r0 = tokenAmount; pool.r1 = quoteAmount; } else { pool.r0 = quoteAmount; pool.r1 = tokenAmount; }
    host.credit(creator, token, -tokenAmount);
    host.touch(pool);
    const rugRoll = (kind === 'listing' || kind === 'owner-powers') && host.rng.chance(0.35);
    const rugAt = (opening ? opening.rug : rugRoll) ? t + host.rng.int(6, opening ? 12 : 30) * 3600 : undefined;
    this.fresh = { token: info, creator, pool, lp: sqrt(tokenAmount * quoteAmount) - 1000n, rugAt };
    this.all.push(this.fresh);
    host.labels.tokens.push({ token, symbol, kind, creator, pair, rug: rugAt !== undefined });
  }

  /** A listing's schedule as planned: when it was listed and, for a rug not yet pulled, when it will be. */
  schedule(token: Address): { listedAt: number; rugAt: number | undefined } | undefined {
    const l = this.all.find((x) => x.token.address.toLowerCase() === token.toLowerCase());
    return l && { listedAt: l.token.listedAt ?? 0, rugAt: l.rugAt };
  }

  toState(): SavedListing[] {
    return this.all.map((l) => ({ token: l.token.address, creator: l.creator, pair: l.pool.pair, lp: l.lp.toString(), rugAt: l.rugAt ?? null }));
  }

  restore(state: unknown, host: MarketHost): void {
    for (const l of state as SavedListing[]) {
      this.all.push({ token: host.token(l.token)!, creator: l.creator, pool: host.market.get(l.pair)!, lp: BigInt(l.lp), ...(l.rugAt !== null && { rugAt: l.rugAt }) });
    }
  }
}

function sqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
}
