/** A contract wallet pays: its owner signs, the token asks the wallet through EIP-1271. */
import { describe, expect, it } from 'vitest';
import { createPublicClient, createWalletClient, hashTypedData, http, parseEther, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { randomBytes } from 'node:crypto';
import { bytesToHex, getAddress } from 'viem';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import { DemoSmartWallet } from '../../chain/artifacts/index.js';
import { CHAINS } from '../../chain/chains.js';
import { viemChain } from '../../chain/runtime.js';
import { X402_NETWORK } from '../../payments/terms.js';
import { mintUsdc, postJson, rpcUrl, useTestSibyl, usdcBalance, json } from '../helpers/sibyl.js';

describe('payment from an EIP-1271 contract wallet', () => {
  const sibyl = useTestSibyl();

  it('is verified through isValidSignature and settled', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const chain = viemChain('base', rpcUrl());
    await fetch(rpcUrl(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setBalance', params: [owner.address, `0x${parseEther('1').toString(16)}`] }) });
    const deployer = createWalletClient({ account: owner, chain, transport: http(rpcUrl()) });
    const client = createPublicClient({ chain, transport: http(rpcUrl()), pollingInterval: 20 });
    const hash = await deployer.deployContract({ abi: DemoSmartWallet.abi, bytecode: DemoSmartWallet.bytecode, args: [owner.address] });
    const wallet = (await client.waitForTransactionReceipt({ hash })).contractAddress as Address;
    await mintUsdc(wallet, '5');

    const now = BigInt(Math.floor(Date.now() / 1000));
    const authorization = { from: wallet, to: getAddress(sibyl.payTo), value: '400000', validAfter: (now - 600n).toString(), validBefore: (now + 300n).toString(), nonce: bytesToHex(randomBytes(32)) };
    const digest = hashTypedData({
      domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: CHAINS.base.usdc },
      types: { TransferWithAuthorization: [
        { name: 'from', type: 'address' }, { name: 'to', type: 'address' }, { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' }, { name: 'validBefore', type: 'uint256' }, { name: 'nonce', type: 'bytes32' },
      ] },
      primaryType: 'TransferWithAuthorization',
      message: { ...authorization, value: 400000n, validAfter: BigInt(authorization.validAfter), validBefore: BigInt(authorization.validBefore) },
    });
    const signature = await owner.sign({ hash: digest });
    const header = encodePaymentSignatureHeader({
      x402Version: 2,
      accepted: { scheme: 'exact', network: X402_NETWORK, amount: '400000', asset: CHAINS.base.usdc, payTo: sibyl.payTo, maxTimeoutSeconds: 300, extra: { name: 'USD Coin', version: '2' } },
      payload: { authorization, signature },
    } as never);

    const res = await postJson(`${sibyl.url}/x402/data/latest-pairs`, { limit: 1 }, { 'X-PAYMENT': header });
    expect(res.status).toBe(200);
    expect((await json(res)).pairs).toHaveLength(1);
    expect(await usdcBalance(wallet)).toBe(4_600_000n);
    expect(await usdcBalance(sibyl.payTo)).toBe(400_000n);
  });
});
