/** Whales move size between themselves and the exchanges' hot wallets (large Transfer events). */
import { encodeFunctionData } from 'viem';
import { DemoToken } from '../../chain/artifacts/index.js';
import { GAS } from '../gas.js';
import type { MarketBehaviour, MarketHost } from './behaviour.js';

export class WhaleTransfers implements MarketBehaviour {
  readonly name = 'whale-transfers';

  step(host: MarketHost, _t: number, dt: number): void {
    if (!host.rng.chance((dt / 3600) * 0.3)) return;
    const whales = host.actors('whale');
    const whale = host.rng.pick(whales);
    const token = host.rng.chance(0.6) ? host.usdc : host.native;
    const amount = host.toRaw(token, host.rng.logUniform(100_000, 1_500_000));
    if (host.balance(whale, token.address) < amount) return;
    const to = host.rng.chance(0.5) ? host.rng.pick(host.actors('exchange')) : host.rng.pick(whales.filter((w) => w !== whale));
    host.queue({ from: whale, to: token.address, data: encodeFunctionData({ abi: DemoToken.abi, functionName: 'transfer', args: [to, amount] }), gas: GAS.transfer });
    host.credit(whale, token.address, -amount);
    host.credit(to, token.address, amount);
  }
}
