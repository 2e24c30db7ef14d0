/**
 * Phishing drainers: on every chain two ApprovalDrainer contracts, each run by its own operator.
 * Victims keep arriving (about one every four hours): a fresh wallet holding USDC or the wrapped
 * native approves a drainer without limit, as a fake "claim" page asks, and most are swept some
 * hours later, their whole balance pulled to the drainer's sink in a transaction they never sent.
 * Each drainer's first two victims are phished at the start and always swept within hours, so a
 * drainer has a record to be recognised by; later ones may still be waiting, their approval live
 * and their balance at risk.
 */
import { encodeFunctionData, erc20Abi, maxUint256, parseEther, parseUnits, type Address } from 'viem';
import { ApprovalDrainer } from '../../chain/artifacts/index.js';
import type { WorldHost, WorldModuleFactory } from './module.js';

export interface DrainerLabels {
  /** Each drainer contract, who runs it and where the loot goes. */
  drainers: { contract: Address; operator: Address; sink: Address }[];
  /** Unlimited approvals victims gave a drainer (never revoked), and the block it swept them in (null: not yet). */
  drainerApprovals: { owner: Address; token: Address; drainer: Address; block: number; drainedBlock: number | null }[];
}

export function emptyDrainerLabels(): DrainerLabels {
  return { drainers: [], drainerApprovals: [] };
}

const DRAINERS = 2;
const VICTIMS_PER_HOUR = 1 / 4;
/** Share of victims swept at all; each drainer's first ones always are. */
const SWEPT_SHARE = 0.6;
const ALWAYS_SWEPT = 2;
const GAS = { approve: 80_000n, sweep: 400_000n };

interface Victim {
  owner: Address;
  token: Address;
  drainer: number;
  /** When its drainer sweeps it (null: never), in world seconds. */
  sweepAt: number | null;
  swept: boolean;
}

interface DrainersState {
  drainers: { contract: Address; operator: Address; sink: Address }[];
  victims: Victim[];
}

export const drainersModule: WorldModuleFactory = (_chain, rng) => {
  let state: DrainersState = { drainers: [], victims: [] };

  const phish = (host: WorldHost, t: number) => {
    const index = state.victims.length;
    const owner = host.actorAddress('phished', index);
    const drainer = index % DRAINERS;
    const native = rng.chance(0.35);
    const token = native ? host.native : host.usdc;
    const amount = native ? host.toRaw(token, rng.logUniform(200, 20_000)) : parseUnits(rng.logUniform(200, 20_000).toFixed(2), 6);
    if (amount <= 0n) return;
    host.queueBalance(owner, parseEther('1'));
    host.fundToken(owner, token.address, amount);
    const { contract } = state.drainers[drainer]!;
    host.queue({ from: owner, to: token.address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [contract, maxUint256] }), gas: GAS.approve });
    const early = state.victims.filter((v) => v.drainer === drainer).length < ALWAYS_SWEPT;
    const sweepAt = early || rng.chance(SWEPT_SHARE) ? t + rng.int(1, early ? 3 : 10) * 3600 : null;
    state.victims.push({ owner, token: token.address, drainer, sweepAt, swept: false });
    host.onMined((block) => host.labels.drainerApprovals.push({ owner, token: token.address, drainer: contract, block, drainedBlock: null }));
  };

  const sweepDue = (host: WorldHost, t: number) => {
    // One sweep per (drainer, token) a block, over every victim due: what an operator's script sends.
    const due = new Map<string, Victim[]>();
    for (const v of state.victims) {
      if (v.swept || v.sweepAt === null || v.sweepAt > t) continue;
      const key = `${v.drainer}:${v.token}`;
      due.set(key, [...(due.get(key) ?? []), v]);
    }
    for (const victims of due.values()) {
      const { contract, operator, sink } = state.drainers[victims[0]!.drainer]!;
      const token = victims[0]!.token;
      host.queue({ from: operator, to: contract, data: encodeFunctionData({ abi: ApprovalDrainer.abi, functionName: 'sweep', args: [token, victims.map((v) => v.owner)] }), gas: GAS.sweep + 60_000n * BigInt(victims.length) });
      for (const v of victims) {
        v.swept = true;
        const taken = host.balance(v.owner, token);
        host.credit(v.owner, token, -taken);
        host.credit(sink, token, taken);
        host.onMined((block) => {
          const label = host.labels.drainerApprovals.find((a) => a.owner === v.owner && a.token === token);
          if (label) label.drainedBlock = block;
        });
      }
    }
  };

  return {
    name: 'drainers',
    setup(host) {
      for (let i = 0; i < DRAINERS; i++) {
        const operator = host.actorAddress('drainer-operator', i);
        const sink = host.actorAddress('drainer-sink', i);
        host.queueBalance(operator, parseEther('100'));
        const contract = host.deploy(ApprovalDrainer.abi, ApprovalDrainer.bytecode, [sink], operator);
        state.drainers.push({ contract, operator, sink });
      }
      host.labels.drainers.push(...state.drainers);
      // Each drainer opens with the victims it always sweeps, so even a short history shows its record.
      for (let i = 0; i < DRAINERS * ALWAYS_SWEPT; i++) phish(host, host.time());
    },
    step(host, t, dt) {
      sweepDue(host, t);
      const arrivals = rng.poisson((dt / 3600) * VICTIMS_PER_HOUR);
      for (let i = 0; i < arrivals; i++) phish(host, t);
    },
    toState: () => state,
    restore(saved) {
      state = saved as DrainersState;
    },
  };
};
