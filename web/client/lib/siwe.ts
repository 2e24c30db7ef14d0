/**
 * Sign-in with Ethereum from a browser wallet (EIP-1193, through viem's wallet client): the
 * server's nonce, domain, URI and chain id, an EIP-4361 message built by viem, signed by the
 * wallet. The server checks all of it again; nothing here is trusted.
 */
import { createWalletClient, custom, getAddress, type Address, type EIP1193Provider, type Hex } from 'viem';
import { createSiweMessage } from 'viem/siwe';

/** What GET /api/auth/nonce answers. */
export interface SignInNonce {
  readonly nonce: string;
  readonly domain: string;
  readonly uri: string;
  readonly chainId: number;
}

export interface SignedIn {
  readonly address: Address;
  readonly message: string;
  readonly signature: Hex;
}

/** The page's wallet, if it has one. */
export function browserWallet(): EIP1193Provider | undefined {
  return (window as { ethereum?: EIP1193Provider }).ethereum;
}

export async function fetchNonce(url: string): Promise<SignInNonce> {
  const res = await fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store' });
  if (!res.ok) throw new Error(`could not get a sign-in nonce (HTTP ${res.status})`);
  return (await res.json()) as SignInNonce;
}

/** Asks the wallet for its account, builds the message for the server's nonce and has the wallet sign it. */
export async function signInWithWallet(ethereum: EIP1193Provider, options: { nonceUrl: string; statement?: string; resources?: readonly string[] }): Promise<SignedIn> {
  const wallet = createWalletClient({ transport: custom(ethereum) });
  const [first] = await wallet.requestAddresses();
  if (!first) throw new Error('the wallet shared no account');
  const address = getAddress(first);
  const { nonce, domain, uri, chainId } = await fetchNonce(options.nonceUrl);
  const message = createSiweMessage({
    domain, uri, chainId, nonce, address, version: '1', issuedAt: new Date(),
    ...(options.statement && { statement: options.statement }),
    ...(options.resources?.length && { resources: [...options.resources] }),
  });
  const signature = await wallet.signMessage({ account: address, message });
  return { address, message, signature };
}
