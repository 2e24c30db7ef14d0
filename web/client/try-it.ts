/**
 * The try-it panel on `/`: a chosen skill's body (editable) sent with the official x402 client
 * (`@x402/fetch` wrapFetchWithPayment, `@x402/evm`'s exact scheme), paying from the browser
 * wallet (EIP-1193 through viem's wallet client) or, only when the server offers it (a devnet),
 * from the demo account. Each step is shown: the 402 and its decoded PAYMENT-REQUIRED, the
 * payment header the client sent, decoded, the answer, and the settlement (PAYMENT-RESPONSE).
 */
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import type { ClientEvmSigner } from '@x402/evm';
import { createWalletClient, custom, defineChain, type Address, type EIP1193Provider } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { byId, island, pretty } from './lib/dom.js';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, decodePaymentSignatureHeader } from '@x402/core/http';
import { PAYMENT_HEADERS, PAYMENT_REQUIRED, PAYMENT_RESPONSE_HEADERS, decoded, firstHeader } from './lib/x402-headers.js';

interface TrySkill {
  title: string;
  path: string;
  envelope: 'none' | 'params';
  maxPriceUsd: string;
  body: Record<string, unknown>;
}
interface Config {
  network: `${string}:${string}`;
  chainId: number;
  devnet: boolean;
  /** The devnet's JSON-RPC URL (only on a devnet), for a wallet that does not know the chain yet. */
  devnetRpcUrl?: string;
  skills: Record<string, TrySkill>;
}

const config = island<Config>('sibyl-config');
const select = byId<HTMLSelectElement>('try-skill');
const bodyInput = byId<HTMLTextAreaElement>('try-body');
const form = byId<HTMLFormElement>('try-form');
const button = byId<HTMLButtonElement>('try-pay');
const priceHint = byId('try-price');

for (const [id, skill] of Object.entries(config.skills)) {
  select.append(new Option(`${skill.title} (${id})`, id));
}

function choose(id: string): void {
  const skill = config.skills[id];
  if (!skill) return;
  select.value = id;
  bodyInput.value = pretty(skill.body);
  priceHint.textContent = `POST ${skill.path}${skill.envelope === 'params' ? ' (A2A envelope {"params": body})' : ''}; at most $${skill.maxPriceUsd}, asked by the 402.`;
}
select.addEventListener('change', () => choose(select.value));
choose(select.value);

// "Try it" on a catalogue card picks that skill here.
for (const b of document.querySelectorAll<HTMLButtonElement>('button[data-try]')) {
  b.addEventListener('click', () => {
    choose(b.dataset.try!);
    byId('try-it').scrollIntoView({ behavior: 'smooth' });
  });
}

type Step = 'challenge' | 'signature' | 'answer' | 'settlement';
function show(step: Step, value: unknown, state: 'done' | 'failed' = 'done'): void {
  byId(`step-${step}`).textContent = typeof value === 'string' ? value : pretty(value);
  const li = document.querySelector<HTMLElement>(`li[data-step="${step}"]`)!;
  li.classList.remove('done', 'failed');
  li.classList.add(state);
}
function reset(): void {
  for (const step of ['challenge', 'signature', 'answer', 'settlement'] as const) {
    byId(`step-${step}`).textContent = '—';
    document.querySelector(`li[data-step="${step}"]`)!.classList.remove('done', 'failed');
  }
  byId('step-tx').textContent = '—';
}

/** The demo account: its key comes from the server only while the payment chain is a devnet. */
async function demoSigner(): Promise<ClientEvmSigner> {
  const res = await fetch('/api/web/demo-account');
  if (!res.ok) throw new Error('this server offers no demo account (the payment chain is not a devnet)');
  const { privateKey } = (await res.json()) as { privateKey: `0x${string}` };
  return privateKeyToAccount(privateKey);
}

/** The browser wallet (EIP-1193) through viem's wallet client, on the payment chain. */
async function walletSigner(): Promise<ClientEvmSigner> {
  const provider = (window as unknown as { ethereum?: EIP1193Provider }).ethereum;
  if (!provider) throw new Error('no browser wallet (window.ethereum) found; install one, or use the demo account on a devnet');
  const wallet = createWalletClient({ transport: custom(provider) });
  const [address] = await wallet.requestAddresses();
  if (!address) throw new Error('the wallet gave no account');
  // Wallets sign EIP-712 only for the chain they are on: ask for the payment chain (on a devnet, add it when the wallet does not know it).
  if ((await wallet.getChainId()) !== config.chainId) {
    try {
      await wallet.switchChain({ id: config.chainId });
    } catch (err) {
      if (!config.devnetRpcUrl || (err as { code?: number }).code !== 4902) throw err;
      await wallet.addChain({ chain: defineChain({ id: config.chainId, name: 'Sibyl devnet', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [config.devnetRpcUrl] } } }) });
    }
  }
  return {
    address: address as Address,
    // The scheme hands viem's own typed-data shape through loosely typed fields.
    signTypedData: (m) => wallet.signTypedData({ account: address, ...(m as unknown as Omit<Parameters<typeof wallet.signTypedData>[0], 'account'>) }),
  };
}

/** fetch that shows each request's payment header and each 402 as the x402 client goes. */
function recordingFetch(): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const sent = firstHeader(request.headers, PAYMENT_HEADERS);
    if (sent) show('signature', { header: sent.name, payload: decoded(decodePaymentSignatureHeader, sent.value) });
    const res = await fetch(request);
    if (res.status === 402) {
      const asked = res.headers.get(PAYMENT_REQUIRED);
      show('challenge', { status: 402, header: PAYMENT_REQUIRED, paymentRequired: asked ? decoded(decodePaymentRequiredHeader, asked) : await res.clone().json() }, sent ? 'failed' : 'done');
    }
    return res;
  };
}

async function pay(): Promise<void> {
  reset();
  const id = select.value;
  const skill = config.skills[id]!;
  let body: unknown;
  try {
    body = JSON.parse(bodyInput.value);
  } catch (err) {
    show('answer', `The body is not JSON: ${(err as Error).message}`, 'failed');
    return;
  }
  const payer = (form.elements.namedItem('payer') as RadioNodeList).value;
  const signer = payer === 'demo' ? await demoSigner() : await walletSigner();
  const client = new x402Client().register(config.network, new ExactEvmScheme(signer));
  // The client refuses more than $1 unless told: this call's dearest price, from the registry.
  client.setSpendControls({ maxAmountPerPayment: `$${skill.maxPriceUsd}` });
  const paying = wrapFetchWithPayment(recordingFetch(), client);
  const res = await paying(skill.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(skill.envelope === 'params' ? { params: body } : body),
  });
  const text = await res.text();
  let answer: unknown = text;
  try {
    answer = JSON.parse(text);
  } catch {
    // not JSON: shown as text
  }
  show('answer', { status: res.status, from: signer.address, body: answer }, res.ok ? 'done' : 'failed');
  const receipt = firstHeader(res.headers, PAYMENT_RESPONSE_HEADERS);
  if (receipt) {
    const settled = decoded(decodePaymentResponseHeader, receipt.value) as { transaction?: string; success?: boolean };
    show('settlement', { header: receipt.name, receipt: settled }, settled.success === false ? 'failed' : 'done');
    byId('step-tx').textContent = settled.transaction ?? '—';
  } else {
    show('settlement', res.ok ? 'No receipt header.' : 'Nothing settled: the answer was not a success, so no money moved.', res.ok ? 'failed' : 'done');
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  button.disabled = true;
  form.dataset.state = 'paying';
  pay().catch((err: Error) => show('answer', `Payment failed: ${err.message}`, 'failed')).finally(() => {
    button.disabled = false;
    form.dataset.state = 'done';
  });
});
