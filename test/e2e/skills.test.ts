/** The two skills answer real figures replayed from the chain's logs, with provenance. */
import { beforeAll, describe, expect, it } from 'vitest';
import { demoAccount } from '../../chain/accounts.js';
import { CHAINS } from '../../chain/chains.js';
import { mintUsdc, paidPoster, useTestSibyl, freshAddress, json, untilIndexed } from '../helpers/sibyl.js';

describe('wallet-holdings and latest-pairs read the index', () => {
  const sibyl = useTestSibyl();
  let paidPost: Awaited<ReturnType<typeof paidPoster>>;
  beforeAll(async () => {
    paidPost = await paidPoster(() => sibyl.url);
  });

  const post = async (path: string, body: unknown) => {
    const res = await paidPost(path, body);
    expect(res.status).toBe(200);
    return json(res);
  };

  it('values a wallet that just received USDC at exactly what it holds', async () => {
    const wallet = freshAddress();
    await mintUsdc(wallet, '1234.56');
    await untilIndexed(sibyl.url); // balances are replayed from the index
    const answer = await post('/x402/data/wallet-holdings', { walletAddress: wallet.toLowerCase(), chain: 'base' });
    expect(answer).toMatchObject({ chain: 'base', chainId: 8453, wallet, methodology: expect.stringContaining('wallet-holdings/v2') });
    expect(answer.holdings).toEqual([
      expect.objectContaining({ token: CHAINS.base.usdc, symbol: 'USDC', balance: '1234.56', priceUsd: 1, valueUsd: 1234.56, pricedBy: 'peg' }),
    ]);
    expect(answer.totalUsd).toBe(1234.56);
    expect(Number(answer.blockRange.to)).toBeGreaterThanOrEqual(Number(answer.blockRange.from));
  });

  it('defaults to ethereum and prices the native balance through the WETH/USDC pool', async () => {
    const answer = await post('/x402/data/wallet-holdings', { walletAddress: demoAccount(3).address });
    expect(answer.chain).toBe('ethereum');
    expect(answer.native.symbol).toBe('ETH');
    expect(Number(answer.native.balance)).toBeGreaterThan(0);
    // The genesis pool opens at $3,000 per WETH; read back from reserves it must be within a cent.
    expect(answer.native.priceUsd).toBeCloseTo(3000, 1);
    const usdc = answer.holdings.find((h: { symbol: string }) => h.symbol === 'USDC');
    expect(usdc).toMatchObject({ balance: '1000000', valueUsd: 1_000_000 });
  });

  it('prices a token routed through the wrapped native pool', async () => {
    const answer = await post('/x402/data/latest-pairs', { chain: 'ethereum', limit: 10 });
    const pepe = answer.pairs.find((p: any) => p.token0.symbol === 'PEPE' || p.token1.symbol === 'PEPE');
    expect(pepe).toBeDefined();
    expect(pepe.liquidityUsd).toBeCloseTo(1_000_000, -2);
    expect(pepe.liquidityBasis).toBe('both_sides');
    expect(answer.pairs.every((p: any) => p.dex === 'uniswap-v2')).toBe(true);
  });
});
