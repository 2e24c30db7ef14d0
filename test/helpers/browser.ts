/**
 * Browser tests drive Debian's Chromium (`apt-get install chromium`; CHROMIUM_PATH overrides)
 * with playwright-core: no browser is downloaded. A page can be given an injected EIP-1193 test
 * wallet whose keys stay in this process (the page asks, the test's viem account signs).
 * Screenshots go to test-artifacts/screenshots/ (kept by CI as artifacts, ignored by git).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { toHex, type Hex, type PrivateKeyAccount } from 'viem';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)) ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', 'test-artifacts', 'screenshots');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
}

/** Saves a full-page screenshot as a test artifact; answers its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Records what the page's content security policy blocked (Chromium reports each refusal on the
 * console): a page that needs a script, style or request from elsewhere shows up here.
 */
export function trackCspViolations(page: Page): string[] {
  const blocked: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) blocked.push(m.text());
  });
  return blocked;
}

/** What the injected wallet was asked to do, for assertions. */
export interface WalletLog {
  readonly requests: { method: string; params?: unknown }[];
}

/**
 * Installs `window.ethereum` (EIP-1193) on every page the context opens, backed by `account`:
 * accounts, chain id, personal_sign and eth_signTypedData_v4; anything else is refused (4200).
 */
export async function injectWallet(page: Page, account: PrivateKeyAccount, chainId: number): Promise<WalletLog> {
  const log: WalletLog = { requests: [] };
  await page.exposeBinding('__sibylTestWallet', async (_source, method: string, params: unknown[] | undefined) => {
    log.requests.push({ method, params });
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return [account.address];
      case 'eth_chainId':
        return toHex(chainId);
      case 'wallet_switchEthereumChain':
        return null;
      case 'personal_sign':
        return account.signMessage({ message: { raw: params![0] as Hex } });
      case 'eth_signTypedData_v4': {
        const typed = JSON.parse(params![1] as string);
        const { EIP712Domain: _domain, ...types } = typed.types;
        return account.signTypedData({ domain: typed.domain, types, primaryType: typed.primaryType, message: typed.message });
      }
      default:
        throw Object.assign(new Error(`test wallet: ${method} is not supported`), { code: 4200 });
    }
  });
  // A string, not a function: a transpiled function may call helpers the page does not have.
  await page.addInitScript(`window.ethereum = {
    isSibylTestWallet: true,
    request: ({ method, params }) => window.__sibylTestWallet(method, params),
    on: () => undefined,
    removeListener: () => undefined,
  };`);
  return log;
}
