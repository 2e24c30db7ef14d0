/** A signed-in MCP client of a Sibyl, with prepaid credits topped up through x402 (the paid tools' way to buy). */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generatePrivateKey } from 'viem/accounts';
import { fundedPayer, json, payingFetch, signInBearer } from './sibyl.js';

export async function creditedMcpClient(baseUrl: string, rpcUrl: string, creditUsd: string | null = '1') {
  const auth = await signInBearer(baseUrl, generatePrivateKey(), 'Sign in to Sibyl');
  if (creditUsd !== null) {
    const { pay } = payingFetch((await fundedPayer('5', rpcUrl)).key);
    const top = await pay(`${baseUrl}/api/credits/topup`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ amountUsd: creditUsd }) });
    if (top.status !== 200) throw new Error(`credit top-up: ${top.status} ${await top.text()}`);
  }
  const client = new Client({ name: 'sibyl-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/api/mcp`), { requestInit: { headers: auth } }));
  return { client, auth, credits: async () => BigInt((await json(await fetch(`${baseUrl}/api/credits`, { headers: auth }))).balance) };
}
