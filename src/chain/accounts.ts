/**
 * Demo accounts of the standard development mnemonic (the one Hardhat, Anvil and Foundry
 * users know). They hold value only on the embedded devnet.
 */
import { bytesToHex, type Hex } from 'viem';
import { mnemonicToAccount, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { DEV_MNEMONIC } from './anvil.js';

export function demoPrivateKey(index: number): Hex {
  const key = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index }).getHdKey().privateKey;
  if (!key) throw new Error(`cannot derive demo key ${index}`);
  return bytesToHex(key);
}

export function demoAccount(index: number): PrivateKeyAccount {
  return privateKeyToAccount(demoPrivateKey(index));
}
