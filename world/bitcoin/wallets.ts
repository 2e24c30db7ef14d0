/**
 * The world's wallets: each actor's keys (with the output script and address each key is used
 * through), the confirmed coins it owns, and a registry that tells, for any output script, whose
 * it is, so a confirmed block credits its outputs to their owners.
 */
import { deriveKey, taprootTweak, type KeyPair } from './keys.js';
import { toHex } from './bytes.js';
import { outputScript, scriptAddress } from './script.js';
import type { InputSigner } from './tx.js';

export type AddressKind = 'p2pk' | 'p2pkh' | 'p2wpkh' | 'p2tr';

export interface OwnedScript {
  readonly kind: AddressKind;
  readonly key: KeyPair;
  readonly script: Uint8Array;
  /** Null for P2PK (no address). */
  readonly address: string | null;
  readonly signer: InputSigner;
  /** P2PK outputs of the early years carry the uncompressed key. */
  readonly uncompressed?: boolean;
}

/** What a coin is, beyond its sats: the world keeps special coins out of ordinary payments. */
export type CoinTag =
  | { readonly kind: 'plain' }
  | { readonly kind: 'inscription'; readonly inscriptionId: string }
  | { readonly kind: 'runes'; readonly balances: ReadonlyMap<string, bigint> }
  | { readonly kind: 'commit'; readonly purpose: string }
  | { readonly kind: 'stake'; readonly stakeTxid: string }
  | { readonly kind: 'unbonding'; readonly stakeTxid: string };

export interface Coin {
  readonly txid: string;
  readonly vout: number;
  readonly value: number;
  readonly owner: OwnedScript;
  readonly height: number;
  readonly coinbase: boolean;
  readonly tag: CoinTag;
}

export type Role = 'early-miner' | 'pool' | 'exchange-cold' | 'exchange-hot' | 'exchange-deposits' | 'custodian' | 'holder' | 'trader' | 'staker';

export class Wallet {
  readonly keys: OwnedScript[] = [];
  /** Confirmed coins by outpoint. */
  private readonly held = new Map<string, Coin>();

  constructor(readonly id: string, readonly role: Role, readonly name: string) {}

  get coins(): Coin[] {
    return [...this.held.values()];
  }

  add(coin: Coin): void {
    this.held.set(`${coin.txid}:${coin.vout}`, coin);
  }

  /** Replaces a held coin (e.g. its tag, once known). */
  replace(coin: Coin): void {
    const key = `${coin.txid}:${coin.vout}`;
    if (this.held.has(key)) this.held.set(key, coin);
  }

  balance(): number {
    let sum = 0;
    for (const c of this.held.values()) sum += c.value;
    return sum;
  }

  /** Coins an ordinary payment may spend at `height` (plain, and coinbases only once mature). */
  spendable(height: number): Coin[] {
    const out: Coin[] = [];
    for (const c of this.held.values()) if (c.tag.kind === 'plain' && (!c.coinbase || height - c.height >= 100)) out.push(c);
    return out;
  }

  take(coins: readonly Coin[]): void {
    for (const c of coins) this.held.delete(`${c.txid}:${c.vout}`);
  }
}

export class Registry {
  private readonly owners = new Map<string, { wallet: Wallet; owned: OwnedScript }>();
  readonly wallets: Wallet[] = [];

  constructor(private readonly seed: string) {}

  wallet(id: string, role: Role, name: string): Wallet {
    const w = new Wallet(id, role, name);
    this.wallets.push(w);
    return w;
  }

  /** A new key of `wallet`, used through `kind`. */
  addKey(wallet: Wallet, kind: AddressKind, label: string, uncompressed = false): OwnedScript {
    const key = deriveKey(this.seed, `${wallet.id}:${label}`);
    let script: Uint8Array;
    let signer: InputSigner;
    if (kind === 'p2pk') {
      script = outputScript.p2pk(uncompressed ? key.pubUncompressed : key.pub);
      signer = { kind: 'p2pk', key };
    } else if (kind === 'p2pkh') {
      script = outputScript.p2pkh(key.pkh);
      signer = { kind: 'p2pkh', key };
    } else if (kind === 'p2wpkh') {
      script = outputScript.p2wpkh(key.pkh);
      signer = { kind: 'p2wpkh', key };
    } else {
      const t = taprootTweak(key);
      script = outputScript.p2tr(t.output);
      signer = { kind: 'p2tr-key', signer: t.signer! };
    }
    const owned: OwnedScript = { kind, key, script, address: scriptAddress(script), signer, uncompressed };
    wallet.keys.push(owned);
    this.register(wallet, owned);
    return owned;
  }

  /** Makes outputs paying `owned.script` belong to `wallet` (also scripts that are not plain keys). */
  register(wallet: Wallet, owned: OwnedScript): void {
    this.owners.set(toHex(owned.script), { wallet, owned });
  }

  ownerOf(script: Uint8Array): { wallet: Wallet; owned: OwnedScript } | undefined {
    return this.owners.get(toHex(script));
  }
}
