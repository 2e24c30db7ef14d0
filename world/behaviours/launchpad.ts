/**
 * The launchpad's bonding curves (Base only): creators launch curve tokens, retail buys push
 * some of them to graduation, and a graduated token, once the launchpad has migrated it to a
 * pair against the wrapped native, keeps trading in the market like any listing.
 */
import { encodeFunctionData, getContractAddress, parseEther, type Address } from 'viem';
import { BondingCurveLaunchpad, SibylV2Factory } from '../../chain/artifacts/index.js';
import { CHAINS } from '../../chain/chains.js';
import { GAS } from '../gas.js';
import type { MarketBehaviour, MarketHost } from './behaviour.js';
import { symbolNumber } from './listings.js';

export interface LaunchpadLabels {
  contracts: { launchpad?: Address };
}

interface CurveToken { address: Address; creator: Address; raisedWei: bigint; graduated: boolean; listed?: boolean }
interface Saved {
  launchpad: Address | null;
  curveTokens: (Omit<CurveToken, 'raisedWei'> & { raisedWei: string })[];
}

/** What a curve must raise (after the 1% fee) to graduate. */
const GRADUATION_WEI = parseEther('4.25');

export class Launchpad implements MarketBehaviour {
  readonly name = 'launchpad';
  private launchpad?: Address;
  private readonly curves: CurveToken[] = [];

  deploy(host: MarketHost): void {
    if (host.chain !== 'base') return;
    const spec = CHAINS[host.chain];
    this.launchpad = host.deploy(BondingCurveLaunchpad.abi, BondingCurveLaunchpad.bytecode, [spec.dexes[0]!.factory, spec.wrappedNative, host.deployer]);
    host.labels.contracts.launchpad = this.launchpad;
  }

  async step(host: MarketHost, _t: number, dt: number): Promise<void> {
    await this.listGraduated(host);
    this.launchAndBuy(host, dt);
  }

  /** A graduated curve whose pair exists on chain joins the tradeable tokens, and its pool the market. */
  private async listGraduated(host: MarketHost): Promise<void> {
    const factory = CHAINS[host.chain].dexes[0]!.factory;
    for (const curve of this.curves) {
      if (!curve.graduated || curve.listed) continue;
      const pair = (await host.client.readContract({ address: factory, abi: SibylV2Factory.abi, functionName: 'getPair', args: [curve.address, host.native.address] })) as Address;
      if (/^0x0{40}$/i.test(pair)) continue; // the last buy is not mined yet
      curve.listed = true;
      const label = host.labels.tokens.find((t) => t.token === curve.address);
      if (label) label.pair = pair;
      host.addToken({ symbol: label?.symbol ?? 'CRV', address: curve.address, decimals: 18, quote: host.native.address, kind: 'launchpad', regime: host.rng.pick([-1, 0, 1]), regimeUntil: host.lastBlockTime() + 86_400, tradeable: true });
      const [token0, token1] = curve.address.toLowerCase() < host.native.address.toLowerCase() ? [curve.address, host.native.address] : [host.native.address, curve.address];
      const pool = host.market.add({ pair, dex: 0, token0, token1, r0: 0n, r1: 0n });
      await host.market.refresh(host.rpc, [pool]);
    }
  }

  /** Creators launch curve tokens; retail buys push some of them to graduation. */
  private launchAndBuy(host: MarketHost, dt: number): void {
    if (!this.launchpad) return;
    if (host.rng.chance((dt / 3600) / 5)) {
      const n = host.nextListingNumber();
      const creator = host.actorAddress('creator', n);
      host.queueBalance(creator, parseEther('1000000'));
      const symbol = `CRV${symbolNumber(host.chain, n)}`;
      const index = this.curves.length;
      host.queue({ from: creator, to: this.launchpad, data: encodeFunctionData({ abi: BondingCurveLaunchpad.abi, functionName: 'launch', args: [`${symbol} Coin`, symbol] }), value: parseEther('0.1'), gas: GAS.launch });
      // The launchpad creates each token with CREATE: its address follows from the launchpad's nonce.
      const address = getContractAddress({ from: this.launchpad, nonce: BigInt(index + 1) });
      this.curves.push({ address, creator, raisedWei: parseEther('0.099'), graduated: false });
      host.labels.tokens.push({ token: address, symbol, kind: 'launchpad', creator, pair: null, rug: false });
    }
    const open = this.curves.filter((c) => !c.graduated);
    const buys = host.rng.poisson((dt / 3600) * 3);
    for (let i = 0; i < buys && open.length; i++) {
      const curve = host.rng.pick(open);
      const buyer = host.rng.pick(host.actors('retail'));
      const wei = parseEther(host.rng.logUniform(0.02, 1.2).toFixed(4));
      host.queue({ from: buyer, to: this.launchpad, data: encodeFunctionData({ abi: BondingCurveLaunchpad.abi, functionName: 'buy', args: [curve.address, 0n] }), value: wei, gas: GAS.curve * 8n });
      curve.raisedWei += (wei * 99n) / 100n;
      if (curve.raisedWei >= GRADUATION_WEI) curve.graduated = true; // the launchpad migrates it
    }
  }

  toState(): Saved {
    return { launchpad: this.launchpad ?? null, curveTokens: this.curves.map((c) => ({ ...c, raisedWei: c.raisedWei.toString() })) };
  }

  restore(state: unknown): void {
    const saved = state as Saved;
    if (saved.launchpad) this.launchpad = saved.launchpad;
    for (const c of saved.curveTokens) this.curves.push({ ...c, raisedWei: BigInt(c.raisedWei) });
  }
}
