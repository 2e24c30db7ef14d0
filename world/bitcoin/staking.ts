/**
 * Babylon-style Bitcoin staking: a staking transaction locks sats in a taproot output whose
 * internal key is unspendable (BIP341's NUMS point) and whose leaves are
 *   timelock:  <staker> OP_CHECKSIGVERIFY <staking time> OP_CHECKSEQUENCEVERIFY
 *   unbonding: <staker> OP_CHECKSIGVERIFY <covenant> OP_CHECKSIG
 * with an OP_RETURN identifying it: "bbn1" (4 bytes) | version (1) | staker key (32) |
 * finality-provider key (32) | staking time (u16 big-endian, blocks). The staker withdraws
 * after the timelock through the first leaf, or unbonds early through the second into an
 * unbonding output that has its own (shorter) timelock.
 */
import { concat, fromHex } from './bytes.js';
import { OP, outputScript, push, pushNumber, script } from './script.js';
import { controlBlock, tapBranchHash, tapLeafHash } from './tx.js';
import { taprootTweak } from './keys.js';

export const STAKING_TAG = new TextEncoder().encode('bbn1');
export const STAKING_VERSION = 0;
/** BIP341's provably unspendable internal key (H = lift_x(sha256(G))). */
export const NUMS_KEY = fromHex('50929b74c1a04954b78b4b6035e97a5e078a5a0f28ec96d547bfee9ace803ac0');
/** Blocks an unbonding output stays locked. */
export const UNBONDING_TIME = 144;

export function timelockLeaf(staker: Uint8Array, blocks: number): Uint8Array {
  return script(push(staker), OP.OP_CHECKSIGVERIFY, pushNumber(blocks), OP.OP_CHECKSEQUENCEVERIFY);
}

export function unbondingLeaf(staker: Uint8Array, covenant: Uint8Array): Uint8Array {
  return script(push(staker), OP.OP_CHECKSIGVERIFY, push(covenant), OP.OP_CHECKSIG);
}

export interface StakingOutput {
  readonly script: Uint8Array;
  readonly timelockLeaf: Uint8Array;
  readonly timelockControl: Uint8Array;
  readonly unbondingLeaf: Uint8Array;
  readonly unbondingControl: Uint8Array;
}

/** The staking output's script and the control blocks of its two leaves. */
export function stakingOutput(staker: Uint8Array, covenant: Uint8Array, blocks: number): StakingOutput {
  const tl = timelockLeaf(staker, blocks);
  const ub = unbondingLeaf(staker, covenant);
  const hTl = tapLeafHash(tl);
  const hUb = tapLeafHash(ub);
  const tweak = taprootTweak(NUMS_KEY, tapBranchHash(hTl, hUb));
  return {
    script: outputScript.p2tr(tweak.output),
    timelockLeaf: tl,
    timelockControl: controlBlock(tweak.parity, NUMS_KEY, [hUb]),
    unbondingLeaf: ub,
    unbondingControl: controlBlock(tweak.parity, NUMS_KEY, [hTl]),
  };
}

/** The output an early unbonding moves the stake to: one timelock leaf under the NUMS key. */
export function unbondedOutput(staker: Uint8Array): { script: Uint8Array; leaf: Uint8Array; control: Uint8Array } {
  const leaf = timelockLeaf(staker, UNBONDING_TIME);
  const tweak = taprootTweak(NUMS_KEY, tapLeafHash(leaf));
  return { script: outputScript.p2tr(tweak.output), leaf, control: controlBlock(tweak.parity, NUMS_KEY) };
}

/** The staking transaction's identifying OP_RETURN. */
export function stakingOpReturn(staker: Uint8Array, finalityProvider: Uint8Array, blocks: number): Uint8Array {
  const data = concat(STAKING_TAG, Uint8Array.of(STAKING_VERSION), staker, finalityProvider, Uint8Array.of(blocks >> 8, blocks & 0xff));
  return outputScript.opReturn(push(data));
}
