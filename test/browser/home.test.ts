/**
 * `/` in Chromium: the catalogue renders every working skill with its prices, opening a skill
 * fetches its real example answer, and the try-it panel completes a paid call on the devnet —
 * from the demo account and from an injected EIP-1193 wallet — showing the 402, the signature,
 * the answer and the settlement transaction, which is then checked on chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { parseAbi, parseEventLogs, type Address, type Hex } from 'viem';
import { demoAccount } from '../../chain/accounts.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { injectWallet, launchBrowser, saveScreenshot, trackCspViolations } from '../helpers/browser.js';
import { baseClient, fundedPayer, USDC, useTestSibyl, TEST_SERVER_PARTS } from '../helpers/sibyl.js';

const registry = createRegistry([], TEST_SERVER_PARTS);
const working = registry.published();
const transfer = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** What the panel shows once a payment finished. */
async function paid(page: Page) {
  await page.waitForSelector('#try-form[data-state="done"]', { timeout: 60_000 });
  const text = (id: string) => page.locator(`#${id}`).innerText();
  return {
    challenge: JSON.parse(await text('step-challenge')),
    signature: JSON.parse(await text('step-signature')),
    answer: JSON.parse(await text('step-answer')),
    settlement: JSON.parse(await text('step-settlement')),
    tx: (await text('step-tx')) as Hex,
  };
}

/** The settlement moved `amount` USDC from `from` to the server's payTo, in a successful transaction. */
async function checkOnChain(tx: Hex, from: Address, payTo: Address, amount: string) {
  const receipt = await baseClient().getTransactionReceipt({ hash: tx });
  expect(receipt.status).toBe('success');
  // USDC's Transfer events (its AuthorizationUsed beside them is not one).
  const moved = parseEventLogs({ abi: transfer, logs: receipt.logs, eventName: 'Transfer' }).filter((l) => l.address.toLowerCase() === USDC.toLowerCase()).map((l) => l.args);
  expect(moved).toContainEqual({ from, to: payTo, value: BigInt(amount) });
}

describe('pages in a browser', () => {
  const sibyl = useTestSibyl();

  it('renders every working skill with its prices; opening one fetches its example answer', async () => {
    const page = await browser.newPage();
    const blocked = trackCspViolations(page);
    try {
      await page.goto(`${sibyl.url}/`);
      await expect.poll(() => page.locator('details.skill').count()).toBe(working.length);
      expect(await page.getByTestId('skill-count').innerText()).toBe(String(working.length));
      // Each card has a price and a table of ways with at least one row.
      expect(await page.locator('details.skill [data-testid="price"]').count()).toBe(working.length);
      expect(await page.locator('details.skill:not(:has(table.ways tbody tr))').count()).toBe(0);
      const card = page.locator('details[data-skill-id="latest-pairs"]');
      await card.locator('summary').click();
      await expect.poll(() => card.locator('.example').getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
      expect(await card.locator('.example .label').innerText()).toMatch(/^Answered — computed /);
      expect(JSON.parse(await card.locator('.example pre').innerText()).pairs.length).toBeGreaterThan(0);
      await saveScreenshot(page, 'home');
      expect(blocked).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('the try-it panel pays from the demo account on the devnet and shows every step', async () => {
    const page = await browser.newPage();
    const blocked = trackCspViolations(page);
    try {
      await page.goto(`${sibyl.url}/`);
      await page.locator('details[data-skill-id="latest-pairs"] summary').click();
      await page.locator('button[data-try="latest-pairs"]').click();
      await page.locator('#demo-option input').check();
      await page.locator('#try-body').fill('{"limit": 3}');
      await page.locator('#try-pay').click();
      const shown = await paid(page);
      const price = registry.byId('latest-pairs')!.quote({ limit: 3 } as never);
      expect(shown.challenge).toMatchObject({ status: 402, header: 'PAYMENT-REQUIRED', paymentRequired: { x402Version: 2, accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: String(price), payTo: sibyl.payTo }] } });
      expect(shown.signature.header).toBe('PAYMENT-SIGNATURE');
      expect(shown.signature.payload.payload.authorization).toMatchObject({ from: demoAccount(1).address, to: sibyl.payTo, value: String(price) });
      expect(shown.answer.status).toBe(200);
      expect(shown.answer.body.pairs.length).toBeLessThanOrEqual(3);
      expect(shown.settlement.receipt).toMatchObject({ success: true, transaction: shown.tx });
      await checkOnChain(shown.tx, demoAccount(1).address, sibyl.payTo, String(price));
      await saveScreenshot(page, 'try-it');
      expect(blocked).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('the try-it panel pays from an injected browser wallet (EIP-1193), for a skill sold on A2A only', async () => {
    const { account } = await fundedPayer('5');
    const page = await browser.newPage();
    const blocked = trackCspViolations(page);
    try {
      const wallet = await injectWallet(page, account, 8453);
      await page.goto(`${sibyl.url}/`);
      // No HTTP path of its own: the panel posts its A2A endpoint with the {"params": ...} envelope.
      // A review of USDC's contract: an answer on any devnet (a ranking on this quiet one has nothing to sell).
      expect(registry.byId('contract-review')!.httpPath).toBeUndefined();
      await page.locator('#try-skill').selectOption('contract-review');
      await page.locator('#try-body').fill(JSON.stringify({ chain: 'base', address: USDC }));
      await page.locator('#try-pay').click();
      const shown = await paid(page);
      expect(shown.answer.status, JSON.stringify(shown.answer)).toBe(200);
      expect(shown.answer.body).toMatchObject({ status: 'completed', skill: 'contract-review', payment: { transaction: shown.tx } });
      expect(shown.signature.payload.payload.authorization.from).toBe(account.address);
      expect(wallet.requests.map((r) => r.method)).toContain('eth_signTypedData_v4');
      const amount = shown.challenge.paymentRequired.accepts[0].amount;
      await checkOnChain(shown.tx, account.address, sibyl.payTo, amount);
      expect(blocked).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('renders /openapi.json with Swagger UI served by Sibyl, response schemas included', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const blocked = trackCspViolations(page);
    const external: string[] = [];
    page.on('request', (r) => void (new URL(r.url()).host !== new URL(sibyl.url).host && external.push(r.url())));
    try {
      await page.goto(`${sibyl.url}/docs`);
      const op = page.locator('.opblock').filter({ hasText: '/x402/data/latest-pairs' }).first();
      await op.waitFor({ timeout: 30_000 });
      await op.locator('.opblock-summary').click();
      // The 200 response carries the skill's answer schema, the 402 the payment requirement.
      const responses = op.locator('.responses-wrapper');
      await expect.poll(() => responses.innerText(), { timeout: 10_000 }).toMatch(/402/);
      expect(await responses.innerText()).toMatch(/pairs/);
      expect(external).toEqual([]);
      await saveScreenshot(page, 'docs');
      expect(blocked).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
