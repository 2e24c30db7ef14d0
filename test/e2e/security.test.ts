/**
 * rug-pull-scanner on tokens this test lists itself, one of each kind (a honeypot, a 25% sell
 * tax, owner powers, a rug, an honest listing with burned LP), paid end to end; the verdicts are
 * checked against what real transactions do on the chain. The honest listing is then bought by
 * ten wallets and its creator burns what it kept: the verdict follows the holders from high to low.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, createWalletClient, http, parseAbi, parseEther, type Abi, type Address, type Hex, type PrivateKeyAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { demoAccount } from '../../chain/accounts.js';
import { DemoToken, OwnerPowersToken, SellTaxToken, SibylV2Factory, SibylV2Router, WrappedNative } from '../../chain/artifacts/index.js';
import { CHAINS } from '../../chain/chains.js';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { viemChain } from '../../chain/runtime.js';
import { worldGenesisTimestamp } from '../../world/index.js';
import { fundedPayer, json, payingFetch, startTestSibyl, untilIndexed, type TestSibyl } from '../helpers/sibyl.js';

const erc20 = parseAbi(['function approve(address, uint256) returns (bool)', 'function balanceOf(address) view returns (uint256)', 'function transfer(address, uint256) returns (bool)', 'function owner() view returns (address)']);
const DEAD = '0x000000000000000000000000000000000000dEaD';
const FAR = 2n ** 40n;
const weth = CHAINS.base.wrappedNative;
type Kind = 'honeypot' | 'taxed' | 'powers' | 'rug' | 'honest';

describe('rug-pull-scanner on listings of every kind', () => {
  let devnet: Devnet;
  let sibyl: TestSibyl;
  let client: ReturnType<typeof createPublicClient>;
  let rpcUrl: string;
  let router: Address;
  let post: (body: unknown) => Promise<any>;
  const tokens = {} as Record<Kind, Address>;

  const walletOf = (account: PrivateKeyAccount) => createWalletClient({ account, chain: viemChain('base', rpcUrl), transport: http(rpcUrl) });
  const send = async (account: PrivateKeyAccount, address: Address, abi: Abi, functionName: string, args: unknown[], value?: bigint) => {
    const hash = await walletOf(account).writeContract({ address, abi, functionName, args, value, gas: 5_000_000n } as never);
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
  };
  const deploy = async (account: PrivateKeyAccount, abi: Abi, bytecode: Hex, args: unknown[]) => {
    const hash = await walletOf(account).deployContract({ abi, bytecode, args } as never);
    return (await client.waitForTransactionReceipt({ hash })).contractAddress!;
  };
  const pairOf = (token: Address) => client.readContract({ address: CHAINS.base.dexes[0]!.factory, abi: SibylV2Factory.abi, functionName: 'getPair', args: [token, weth] }) as Promise<Address>;

  /** Lists a token against 10 WETH the way a creator does; returns its pair. */
  const list = async (creator: PrivateKeyAccount, token: Address) => {
    await send(creator, weth, WrappedNative.abi as Abi, 'deposit', [], parseEther('10'));
    await send(creator, weth, erc20, 'approve', [router, 2n ** 255n]);
    await send(creator, token, erc20, 'approve', [router, 2n ** 255n]);
    await send(creator, router, SibylV2Router.abi as Abi, 'addLiquidity', [token, weth, parseEther('800000000'), parseEther('10'), 0n, 0n, creator.address, FAR]);
    return pairOf(token);
  };

  beforeAll(async () => {
    // The listings are made two days back in chain time (so the honest pool can have traded for a
    // day by the last test); the clock is brought to now before anyone pays (authorizations are dated now).
    devnet = await startDevnet({ chains: ['base'], basePort: 0, genesisTimestamp: worldGenesisTimestamp(2) });
    rpcUrl = devnet.chains[0]!.rpcUrl;
    client = createPublicClient({ chain: viemChain('base', rpcUrl), transport: http(rpcUrl), pollingInterval: 20 }) as never;
    router = await deploy(demoAccount(4), SibylV2Router.abi as Abi, SibylV2Router.bytecode as Hex, [CHAINS.base.dexes[0]!.factory]);
    const supply = parseEther('1000000000');
    const [a, b, c, d, e] = [5, 6, 7, 8, 9].map(demoAccount) as [PrivateKeyAccount, PrivateKeyAccount, PrivateKeyAccount, PrivateKeyAccount, PrivateKeyAccount];
    tokens.honeypot = await deploy(a, SellTaxToken.abi as Abi, SellTaxToken.bytecode as Hex, ['Honey', 'HNY', supply, 0, true]);
    await send(a, tokens.honeypot, SellTaxToken.abi as Abi, 'setPool', [await list(a, tokens.honeypot), true]);
    tokens.taxed = await deploy(b, SellTaxToken.abi as Abi, SellTaxToken.bytecode as Hex, ['Taxed', 'TAXD', supply, 2_500, false]);
    await send(b, tokens.taxed, SellTaxToken.abi as Abi, 'setPool', [await list(b, tokens.taxed), true]);
    tokens.powers = await deploy(c, OwnerPowersToken.abi as Abi, OwnerPowersToken.bytecode as Hex, ['Powers', 'PWR', supply]);
    await list(c, tokens.powers);
    tokens.rug = await deploy(d, DemoToken.abi as Abi, DemoToken.bytecode as Hex, ['Rug', 'RUG', 18, supply, d.address]);
    const rugPair = await list(d, tokens.rug);
    await send(d, rugPair, erc20, 'approve', [router, 2n ** 255n]);
    const lp = (await client.readContract({ address: rugPair, abi: erc20, functionName: 'balanceOf', args: [d.address] })) as bigint;
    await send(d, router, SibylV2Router.abi as Abi, 'removeLiquidity', [tokens.rug, weth, lp, 0n, 0n, d.address, FAR]);
    tokens.honest = await deploy(e, DemoToken.abi as Abi, DemoToken.bytecode as Hex, ['Honest', 'HON', 18, supply, e.address]);
    const honestPair = await list(e, tokens.honest);
    const honestLp = (await client.readContract({ address: honestPair, abi: erc20, functionName: 'balanceOf', args: [e.address] })) as bigint;
    await send(e, honestPair, erc20, 'transfer', [DEAD, honestLp]); // LP burned: locked for good

    await client.request({ method: 'evm_setNextBlockTimestamp' as never, params: [Math.floor(Date.now() / 1000)] as never });
    await client.request({ method: 'evm_mine' as never, params: [] as never });
    sibyl = await startTestSibyl({ rpcUrls: { base: rpcUrl } });
    const { key } = await fundedPayer('20', rpcUrl);
    post = async (body) => {
      const res = await payingFetch(key).pay(`${sibyl.url}/x402/data/rug-pull-scanner`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status).toBe(200);
      return json(res);
    };
  });
  afterAll(async () => {
    await sibyl?.close();
    await devnet?.stop();
  });

  /** A real trader buys 0.1 WETH of the token through the router. */
  const buyForReal = async (token: Address) => {
    const trader = demoAccount(3);
    await send(trader, weth, WrappedNative.abi as Abi, 'deposit', [], parseEther('0.1'));
    await send(trader, weth, erc20, 'approve', [router, 2n ** 255n]);
    await send(trader, router, SibylV2Router.abi as Abi, 'swapExactTokensForTokens', [parseEther('0.1'), 0n, [weth, token], trader.address, FAR]);
    return { trader, held: (await client.readContract({ address: token, abi: erc20, functionName: 'balanceOf', args: [trader.address] })) as bigint };
  };

  it('a honeypot: the simulated sell reverts, and so does a real one', async () => {
    const scan = await post({ tokenAddress: tokens.honeypot });
    expect(scan).toMatchObject({ chain: 'base', methodology: expect.stringContaining('security/v2'), honeypot: true, verdict: 'critical', riskScore: 100 });
    expect(scan.simulation).toMatchObject({ available: true, buyReverted: false, sellReverted: true, buyTaxPct: 0 });
    const { trader, held } = await buyForReal(tokens.honeypot);
    await expect(client.simulateContract({ account: trader, address: tokens.honeypot, abi: erc20, functionName: 'transfer', args: [await pairOf(tokens.honeypot), held] })).rejects.toThrow();
  });

  it('a 25% sell tax: measured by the simulation and by a real transfer into the pool', async () => {
    const scan = await post({ tokenAddress: tokens.taxed });
    expect(scan.honeypot).toBe(false);
    expect(scan.simulation.sellTaxPct).toBeCloseTo(25, 1);
    expect(scan.simulation.buyTaxPct).toBe(0);
    expect(scan.findings.map((f: any) => f.finding)).toContain('sell tax 25%');
    const { trader, held } = await buyForReal(tokens.taxed);
    const pair = await pairOf(tokens.taxed);
    const before = (await client.readContract({ address: tokens.taxed, abi: erc20, functionName: 'balanceOf', args: [pair] })) as bigint;
    await send(trader, tokens.taxed, erc20, 'transfer', [pair, held]);
    const arrived = ((await client.readContract({ address: tokens.taxed, abi: erc20, functionName: 'balanceOf', args: [pair] })) as bigint) - before;
    expect((1 - Number(arrived) / Number(held)) * 100).toBeCloseTo(scan.simulation.sellTaxPct, 1);
  });

  it('owner powers: mint, blacklist and pause found in the bytecode of a token whose owner is live', async () => {
    const scan = await post({ tokenAddress: tokens.powers });
    expect(scan.ownerPowers).toMatchObject({ available: true, renounced: false });
    expect(scan.ownerPowers.powers).toEqual(expect.arrayContaining(['mint', 'blacklist', 'pause']));
    expect(scan.ownerPowers.owner.toLowerCase()).toBe(((await client.readContract({ address: tokens.powers, abi: erc20, functionName: 'owner' })) as string).toLowerCase());
    expect(scan.honeypot).toBe(false);
    expect(['high', 'critical']).toContain(scan.verdict);
    // An honest token has none of them.
    const honest = await post({ tokenAddress: tokens.honest });
    expect(honest.ownerPowers.powers).toEqual([]);
  });

  it('a rug: the deployer burned its LP and the pool is empty on chain', async () => {
    const scan = await post({ tokenAddress: tokens.rug });
    expect(scan.rugged).toBe(true);
    expect(scan.verdict).toBe('critical');
    const pool = scan.liquidity[0];
    expect(pool.provider).toBe(demoAccount(8).address.toLowerCase());
    expect(pool.providerHoldsPct).toBe(0);
    expect(pool.removedPct).toBeGreaterThan(99);
    expect(scan.deployer.address).toBe(demoAccount(8).address.toLowerCase());
    const wethLeft = (await client.readContract({ address: weth, abi: erc20, functionName: 'balanceOf', args: [pool.pool] })) as bigint;
    expect(wethLeft).toBeLessThan(parseEther('0.001'));
  });

  it('an honest listing with burned LP: the LP cannot be pulled, but one holder and no trade keep it from low', async () => {
    const scan = await post({ tokenAddress: tokens.honest });
    expect(scan).toMatchObject({ honeypot: false, rugged: false, verdict: 'high' });
    expect(scan.simulation).toMatchObject({ buyTaxPct: 0, sellTaxPct: 0, sellReverted: false });
    expect(scan.liquidity[0].lp.burnedPct).toBeGreaterThan(99.9);
    expect(scan.deployer).toMatchObject({ address: demoAccount(9).address.toLowerCase(), via: 'first-mint', otherTokens: 0 });
    const factor = (name: string) => scan.factors.find((f: any) => f.factor === name);
    expect(factor('lp-lock')).toMatchObject({ severity: 'none', value: 0, finding: expect.stringMatching(/^LP cannot be pulled by one wallet/) });
    // Outside the pool only the creator holds any (its 200,000,000 of 1,000,000,000), and nobody traded.
    expect(factor('holder-concentration')).toMatchObject({ severity: 'high', value: 100, evidence: { holderCount: 1, top: [{ address: demoAccount(9).address.toLowerCase(), pct: 100 }] } });
    expect(factor('trading-activity')).toMatchObject({ severity: 'medium', value: 0 });
  });

  it('once ten wallets hold it, its creator has burned the rest, and its pool is two days old, the same token is low', async () => {
    const creator = demoAccount(9);
    const pair = await pairOf(tokens.honest);
    for (let i = 0; i < 10; i++) {
      const buyer = privateKeyToAccount(generatePrivateKey());
      await client.request({ method: 'anvil_setBalance' as never, params: [buyer.address, `0x${parseEther('1').toString(16)}`] as never });
      await send(buyer, weth, WrappedNative.abi as Abi, 'deposit', [], parseEther('0.5'));
      await send(buyer, weth, erc20, 'approve', [router, 2n ** 255n]);
      await send(buyer, router, SibylV2Router.abi as Abi, 'swapExactTokensForTokens', [parseEther('0.5'), 0n, [weth, tokens.honest], buyer.address, FAR]);
    }
    await send(creator, tokens.honest, erc20, 'transfer', [DEAD, (await client.readContract({ address: tokens.honest, abi: erc20, functionName: 'balanceOf', args: [creator.address] })) as bigint]);
    await untilIndexed(sibyl.url);
    const scan = await post({ tokenAddress: tokens.honest });
    expect(scan.factors.filter((f: any) => f.severity !== 'none' || !f.available)).toEqual([]);
    expect(scan).toMatchObject({ verdict: 'low', riskScore: 0, findings: [] });
    const factor = (name: string) => scan.factors.find((f: any) => f.factor === name);
    // Each buyer's share on chain: ten buys of 0.5 WETH into a pool that grows, so each less than the last, none near half.
    expect(factor('holder-concentration')).toMatchObject({ evidence: { holderCount: 10 } });
    expect(factor('holder-concentration').value).toBeLessThan(50);
    expect(factor('trading-activity')).toMatchObject({ value: 10 });
    expect(factor('trading-activity').evidence.ageHours).toBeGreaterThanOrEqual(25);
    expect(await client.readContract({ address: pair, abi: erc20, functionName: 'balanceOf', args: [creator.address] })).toBe(0n);
  });
});
