/**
 * The tokenized-equity contracts on a bare node: a StockToken's ERC-8056 multiplier (scheduled,
 * in effect from its moment, raw balances untouched), its issuer's powers (mint, burn, pause,
 * blocklist), an issuer's registry and attestations, the directories, and a Chainlink-shaped feed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, createTestClient, createWalletClient, decodeEventLog, http, parseEther, publicActions, walletActions, type Address, type Hex } from 'viem';
import { startAnvil, type AnvilNode } from '../../chain/anvil.js';
import { StockFeedDirectory, StockFeedTransmitter, StockIssuer, StockIssuerDirectory, StockPriceFeed, StockToken } from '../../chain/artifacts/index.js';
import { EMBEDDED_STOCK_FEED_DIRECTORY, EMBEDDED_STOCK_ISSUER_DIRECTORY } from '../../chain/stocks.js';

const OPERATOR: Address = '0x00000000000000000000000000000000000a0001';
const HOLDER: Address = '0x00000000000000000000000000000000000a0002';
const OTHER: Address = '0x00000000000000000000000000000000000a0003';
const ONE = 10n ** 18n;

describe('stock contracts', () => {
  let node: AnvilNode;
  let client: ReturnType<typeof makeClient>;
  const makeClient = (url: string) => createTestClient({ mode: 'anvil', transport: http(url) }).extend(publicActions).extend(walletActions);

  /** Sends as an impersonated account and mines; the receipt's status. */
  const send = async (from: Address, to: Address | undefined, abi: readonly unknown[], functionName: string, args: readonly unknown[] = []) => {
    const hash = to
      ? await client.writeContract({ account: from, chain: null, address: to, abi: abi as never, functionName, args } as never)
      : await client.deployContract({ account: from, chain: null, abi: abi as never, bytecode: args[0] as Hex, args: args.slice(1) } as never);
    await client.mine({ blocks: 1 });
    return client.getTransactionReceipt({ hash });
  };
  const read = <T>(address: Address, abi: readonly unknown[], functionName: string, args: readonly unknown[] = []) =>
    client.readContract({ address, abi: abi as never, functionName, args } as never) as Promise<T>;

  let issuer: Address;
  let token: Address;

  beforeAll(async () => {
    node = await startAnvil({ chainId: 4663, port: 0 });
    client = makeClient(node.rpcUrl);
    await client.setAutomine(false);
    for (const a of [OPERATOR, HOLDER, OTHER]) {
      await client.impersonateAccount({ address: a });
      await client.setBalance({ address: a, value: parseEther('10') });
    }
    await client.setCode({ address: EMBEDDED_STOCK_ISSUER_DIRECTORY, bytecode: StockIssuerDirectory.deployedBytecode });
    await client.setCode({ address: EMBEDDED_STOCK_FEED_DIRECTORY, bytecode: StockFeedDirectory.deployedBytecode });
    const slot0 = `0x${OPERATOR.slice(2).padStart(64, '0')}` as Hex;
    await client.setStorageAt({ address: EMBEDDED_STOCK_ISSUER_DIRECTORY, index: 0, value: slot0 });
    await client.setStorageAt({ address: EMBEDDED_STOCK_FEED_DIRECTORY, index: 0, value: slot0 });
    issuer = (await send(OPERATOR, undefined, StockIssuer.abi, '', [StockIssuer.bytecode, 'Test Issuer', OPERATOR])).contractAddress!;
  }, 60_000);
  afterAll(async () => {
    await node?.stop();
  });

  it('an issuer lists tokens that name it, and the directory registers the issuer', async () => {
    const listed = await send(OPERATOR, issuer, StockIssuer.abi, 'listToken', ['AAPL', 'Apple Stock Token', 'AAPL']);
    const event = decodeEventLog({ abi: StockIssuer.abi, ...listed.logs.at(-1)! });
    expect(event.eventName).toBe('StockTokenListed');
    token = (event.args as { token: Address }).token;
    expect(await read<Address[]>(issuer, StockIssuer.abi, 'tokens')).toEqual([token]);
    expect((await read<Address>(token, StockToken.abi, 'issuer')).toLowerCase()).toBe(issuer.toLowerCase());
    expect((await read<Address>(token, StockToken.abi, 'owner')).toLowerCase()).toBe(OPERATOR.toLowerCase());
    expect(await read<string>(token, StockToken.abi, 'underlying')).toBe('AAPL');
    expect(await read<number>(token, StockToken.abi, 'decimals')).toBe(18);
    expect((await send(HOLDER, EMBEDDED_STOCK_ISSUER_DIRECTORY, StockIssuerDirectory.abi, 'register', [HOLDER, 'Impostor'])).status).toBe('reverted');
    expect((await send(OPERATOR, EMBEDDED_STOCK_ISSUER_DIRECTORY, StockIssuerDirectory.abi, 'register', [issuer, 'Test Issuer'])).status).toBe('success');
    expect((await read<Address[]>(EMBEDDED_STOCK_ISSUER_DIRECTORY, StockIssuerDirectory.abi, 'issuers')).map((a) => a.toLowerCase())).toEqual([issuer.toLowerCase()]);
  });

  it('moves the UI multiplier at its effective moment and never a raw balance', async () => {
    expect((await send(HOLDER, token, StockToken.abi, 'mint', [HOLDER, 5n * ONE])).status).toBe('reverted');
    await send(OPERATOR, token, StockToken.abi, 'mint', [HOLDER, 5n * ONE]);
    const now = Number((await client.getBlock()).timestamp);
    const receipt = await send(OPERATOR, token, StockToken.abi, 'setUIMultiplier', [4n * ONE, BigInt(now + 1_000)]);
    const updated = decodeEventLog({ abi: StockToken.abi, ...receipt.logs[0]! });
    expect(updated.eventName).toBe('UIMultiplierUpdated');
    expect(updated.args).toMatchObject({ oldMultiplier: ONE, newMultiplier: 4n * ONE, effectiveAt: BigInt(now + 1_000) });
    expect(await read<bigint>(token, StockToken.abi, 'uiMultiplier')).toBe(ONE);
    expect(await read<bigint>(token, StockToken.abi, 'newUIMultiplier')).toBe(4n * ONE);
    await client.setNextBlockTimestamp({ timestamp: BigInt(now + 1_000) });
    await client.mine({ blocks: 1 });
    expect(await read<bigint>(token, StockToken.abi, 'uiMultiplier')).toBe(4n * ONE);
    expect(await read<bigint>(token, StockToken.abi, 'balanceOf', [HOLDER])).toBe(5n * ONE);
    expect(await read<bigint>(token, StockToken.abi, 'totalSupply')).toBe(5n * ONE);
    expect(await read<bigint>(token, StockToken.abi, 'balanceOfUI', [HOLDER])).toBe(20n * ONE);
    expect(await read<bigint>(token, StockToken.abi, 'toUIAmount', [ONE])).toBe(4n * ONE);
    expect(await read<bigint>(token, StockToken.abi, 'fromUIAmount', [4n * ONE])).toBe(ONE);
    // A later change starts from the one in effect.
    const next = await send(OPERATOR, token, StockToken.abi, 'setUIMultiplier', [5n * ONE, BigInt(now + 5_000)]);
    expect(decodeEventLog({ abi: StockToken.abi, ...next.logs[0]! }).args).toMatchObject({ oldMultiplier: 4n * ONE, newMultiplier: 5n * ONE });
    expect(await read<bigint>(token, StockToken.abi, 'uiMultiplier')).toBe(4n * ONE);
  });

  it('stops transfers while paused and for a blocked account; burns stay the issuer\'s', async () => {
    const transfer = (from: Address, to: Address) => send(from, token, StockToken.abi, 'transfer', [to, ONE]);
    await send(OPERATOR, token, StockToken.abi, 'pause');
    expect(await read<boolean>(token, StockToken.abi, 'paused')).toBe(true);
    expect((await transfer(HOLDER, OTHER)).status).toBe('reverted');
    await send(OPERATOR, token, StockToken.abi, 'unpause');
    expect((await transfer(HOLDER, OTHER)).status).toBe('success');
    const blocked = await send(OPERATOR, token, StockToken.abi, 'setBlocklisted', [OTHER, true]);
    expect(decodeEventLog({ abi: StockToken.abi, ...blocked.logs[0]! })).toMatchObject({ eventName: 'Blocklisted', args: { blocked: true } });
    expect(await read<boolean>(token, StockToken.abi, 'isBlocklisted', [OTHER])).toBe(true);
    expect((await transfer(OTHER, HOLDER)).status).toBe('reverted');
    expect((await transfer(HOLDER, OTHER)).status).toBe('reverted');
    expect((await send(OPERATOR, token, StockToken.abi, 'burn', [OTHER, ONE])).status).toBe('success');
    expect(await read<bigint>(token, StockToken.abi, 'totalSupply')).toBe(4n * ONE);
  });

  it('records reserve attestations', async () => {
    const receipt = await send(OPERATOR, issuer, StockIssuer.abi, 'attest', [token, 16n * ONE, 1_700_000_000n]);
    expect(decodeEventLog({ abi: StockIssuer.abi, ...receipt.logs[0]! })).toMatchObject({ eventName: 'ReservesAttested', args: { reserveShares: 16n * ONE, asOf: 1_700_000_000n } });
    const [reserve, asOf, attestedAt] = await read<[bigint, bigint, bigint]>(issuer, StockIssuer.abi, 'attestation', [token]);
    expect([reserve, asOf]).toEqual([16n * ONE, 1_700_000_000n]);
    expect(attestedAt).toBeGreaterThan(0n);
  });

  it('a feed answers in AggregatorV3 shape, round by round, found through the feed directory', async () => {
    const feed = (await send(OPERATOR, undefined, StockPriceFeed.abi, '', [StockPriceFeed.bytecode, 'AAPL / USD', OPERATOR])).contractAddress!;
    await send(OPERATOR, EMBEDDED_STOCK_FEED_DIRECTORY, StockFeedDirectory.abi, 'setFeed', ['AAPL', feed]);
    expect((await read<string>(EMBEDDED_STOCK_FEED_DIRECTORY, StockFeedDirectory.abi, 'feed', ['AAPL'])).toLowerCase()).toBe(feed.toLowerCase());
    expect(await read<string[]>(EMBEDDED_STOCK_FEED_DIRECTORY, StockFeedDirectory.abi, 'underlyings')).toEqual(['AAPL']);
    expect(await read<number>(feed, StockPriceFeed.abi, 'decimals')).toBe(8);
    expect(await read<string>(feed, StockPriceFeed.abi, 'description')).toBe('AAPL / USD');
    expect((await send(HOLDER, feed, StockPriceFeed.abi, 'transmit', [1n])).status).toBe('reverted');
    const receipt = await send(OPERATOR, feed, StockPriceFeed.abi, 'transmit', [22_512_345_678n]);
    const answered = receipt.logs.map((l) => decodeEventLog({ abi: StockPriceFeed.abi, ...l })).find((e) => e.eventName === 'AnswerUpdated')!;
    expect(answered.args).toMatchObject({ current: 22_512_345_678n, roundId: 1n });
    await send(OPERATOR, feed, StockPriceFeed.abi, 'transmit', [22_600_000_000n]);
    const [roundId, answer, , updatedAt, answeredInRound] = await read<[bigint, bigint, bigint, bigint, bigint]>(feed, StockPriceFeed.abi, 'latestRoundData');
    expect([roundId, answer, answeredInRound]).toEqual([2n, 22_600_000_000n, 2n]);
    expect(updatedAt).toBeGreaterThan(0n);
    expect((await read<[bigint, bigint]>(feed, StockPriceFeed.abi, 'getRoundData', [1n]))[1]).toBe(22_512_345_678n);
  });

  it('a transmitter posts many feeds\' rounds in one transaction, each feed recording its own', async () => {
    const forwarder = (await send(OPERATOR, undefined, StockFeedTransmitter.abi, '', [StockFeedTransmitter.bytecode, OPERATOR])).contractAddress!;
    // One after the other: two deployments from one sender at once race for its nonce.
    const feeds: `0x${string}`[] = [];
    for (const d of ['MSFT / USD', 'NVDA / USD']) feeds.push((await send(OPERATOR, undefined, StockPriceFeed.abi, '', [StockPriceFeed.bytecode, d, forwarder])).contractAddress!);
    expect((await send(HOLDER, forwarder, StockFeedTransmitter.abi, 'transmit', [feeds, [1n, 2n]])).status).toBe('reverted');
    const receipt = await send(OPERATOR, forwarder, StockFeedTransmitter.abi, 'transmit', [feeds, [43_000_000_000n, 12_000_000_000n]]);
    const answered = receipt.logs.map((l) => ({ address: l.address.toLowerCase(), event: decodeEventLog({ abi: StockPriceFeed.abi, ...l }) })).filter((e) => e.event.eventName === 'AnswerUpdated');
    expect(answered.map((e) => e.address)).toEqual(feeds.map((f) => f.toLowerCase()));
    expect((await read<[bigint, bigint]>(feeds[1]!, StockPriceFeed.abi, 'latestRoundData'))[1]).toBe(12_000_000_000n);
  });
});
