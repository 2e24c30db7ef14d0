/**
 * The demo account for the try-it panel: only while the payment chain is a devnet Sibyl built —
 * its node says it is anvil (`web3_clientVersion`) and carries Sibyl's genesis marker (the
 * embedded devnet of `npm start`, or a test devnet Sibyl's devnet code started) — where demo
 * account #1 of the public test mnemonic holds devnet USDC. On any other chain (a real one,
 * another project's anvil) the endpoint is a 404 and the page never offers it.
 */
import type { Express } from 'express';
import { demoAccount, demoPrivateKey } from '../chain/accounts.js';
import { PAYMENT_CHAIN } from '../chain/chains.js';
import { notSibylDevnet } from '../chain/genesis-marker.js';
import type { ChainRuntime } from '../chain/runtime.js';
import { SibylError } from '../skills/core/errors.js';
import { within } from '../lib/time.js';

export const DEMO_ACCOUNT_PATH = '/api/web/demo-account';
/** How long a page or the demo endpoint waits for the node to say what it is. */
export const DEVNET_PROBE_WAIT_MS = 3_000;
/** The demo account the panel pays from (#0 is the devnet's deployer and settler). */
const DEMO_INDEX = 1;

/** Whether the payment chain is a devnet; a node that does not answer is not one. Asked once per node, once it answered. */
export class DevnetProbe {
  private answer: Promise<boolean> | undefined;

  constructor(private readonly chains: ChainRuntime) {}

  isDevnet(): Promise<boolean> {
    this.answer ??= (async () => {
      const chain = this.chains.get(PAYMENT_CHAIN);
      const [version, notOurs] = await Promise.all([chain.client.request({ method: 'web3_clientVersion' }), notSibylDevnet(chain.client, chain.spec.chainId)]);
      return typeof version === 'string' && version.toLowerCase().startsWith('anvil') && notOurs === null;
    })();
    const answer = this.answer;
    // A node that did not answer is asked again next time.
    return answer.catch(() => {
      if (this.answer === answer) this.answer = undefined;
      return false;
    });
  }
}

export function mountDemoAccount(app: Express, probe: DevnetProbe, chains: ChainRuntime): void {
  app.get(DEMO_ACCOUNT_PATH, async (_req, res) => {
    // A node that does not answer in time is not taken for a devnet.
    if (!(await within(DEVNET_PROBE_WAIT_MS, probe.isDevnet(), false))) throw new SibylError('not_found', `no route for GET ${DEMO_ACCOUNT_PATH}: the payment chain is not a devnet, so no demo account is offered`);
    const chain = chains.get(PAYMENT_CHAIN);
    res.set('Cache-Control', 'no-store').json({
      address: demoAccount(DEMO_INDEX).address,
      privateKey: demoPrivateKey(DEMO_INDEX),
      chainId: chain.spec.chainId,
      rpcUrl: chain.rpcUrl,
      note: `demo account #${DEMO_INDEX} of the public test mnemonic; it holds value only on this devnet`,
    });
  });
}
