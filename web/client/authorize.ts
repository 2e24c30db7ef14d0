/**
 * The OAuth sign-in page (/oauth/interaction/:uid): "Sign in with Ethereum" has the wallet sign
 * the server's message (its statement names the client asking), posts it back, and follows the
 * redirect to the application; a refusal is shown as the server worded it.
 */
import { browserWallet, signInWithWallet } from './lib/siwe.js';

interface PageData {
  readonly loginUrl: string;
  readonly nonceUrl: string;
  readonly statement: string;
  readonly resources: readonly string[];
}

interface ErrorBody {
  readonly error?: { readonly code?: string; readonly message?: string };
}

const data = JSON.parse(document.getElementById('sign-in')!.textContent!) as PageData;
const button = document.getElementById('sign-in-button') as HTMLButtonElement;
const status = document.getElementById('status')!;

function show(text: string, kind: 'info' | 'error' = 'info'): void {
  status.textContent = text;
  status.className = kind;
}

/** A wallet's refusal (EIP-1193 4001) or any other failure, in a sentence. */
function reason(err: unknown): string {
  const e = err as { code?: number; cause?: { code?: number }; shortMessage?: string; message?: string };
  if (e.code === 4001 || e.cause?.code === 4001) return 'You declined the signature in your wallet; nothing was shared.';
  return e.shortMessage ?? e.message ?? String(err);
}

async function signIn(): Promise<void> {
  const wallet = browserWallet();
  if (!wallet) return show('No Ethereum wallet found in this browser: install or unlock one (it must offer window.ethereum) and reload.', 'error');
  button.disabled = true;
  try {
    show('Waiting for your wallet to sign the sign-in message…');
    const signed = await signInWithWallet(wallet, data);
    show('Checking the signature…');
    const res = await fetch(data.loginUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ message: signed.message, signature: signed.signature }),
    });
    const body = (await res.json().catch(() => ({}))) as ErrorBody & { redirectTo?: string };
    if (!res.ok || !body.redirectTo) {
      return show(`Sign-in refused: ${body.error?.message ?? `HTTP ${res.status}`}`, 'error');
    }
    show(`Signed in as ${signed.address}; returning to the application…`);
    window.location.assign(body.redirectTo);
  } catch (err) {
    show(`Sign-in failed: ${reason(err)}`, 'error');
  } finally {
    button.disabled = false;
  }
}

button.addEventListener('click', () => void signIn());
