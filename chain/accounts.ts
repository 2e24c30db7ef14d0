/**
 * Demo accounts of the standard development mnemonic (the one Hardhat, Anvil and Foundry
 * users know). They hold value only on the embedded devnet. Derivation runs PBKDF2 over the
 * mnemonic once; each key is derived once and remembered.
 */
import { bytesToHex, type Hex } from 'viem';
import { mnemonicToAccount, privateKeyToAccount, type HDKey, type PrivateKeyAccount } from 'viem/accounts';
import { DEV_MNEMONIC } from './anvil.js';

const keys = new Map<number, Hex>();
const accounts = new Map<number, PrivateKeyAccount>();
/** m/44'/60'/0'/0, whose children are the demo accounts: one PBKDF2 for all of them, not one each (~100 ms apiece at start-up). */
let parent: HDKey | undefined;

export function demoPrivateKey(index: number): Hex {
  let key = keys.get(index);
  if (!key) {
    parent ??= mnemonicToAccount(DEV_MNEMONIC, { path: "m/44'/60'/0'/0" }).getHdKey();
    const raw = parent.deriveChild(index).privateKey;
    if (!raw) throw new Error(`cannot derive demo key ${index}`);
    keys.set(index, (key = bytesToHex(raw)));
  }
  return key;
}

export function demoAccount(index: number): PrivateKeyAccount {
  let account = accounts.get(index);
  if (!account) accounts.set(index, (account = privateKeyToAccount(demoPrivateKey(index))));
  return account;
}
