/**
 * OAuth 2.1 for the MCP tool server (MCP 2025-11-25 authorization): to be built (issue 18).
 * Mounted before the body parsers: the token endpoint takes form bodies.
 */
import type { Express, Request } from 'express';
import type { Store } from '../../store/store.js';
import type { Accounts } from '../auth.js';

export interface OAuthDeps {
  readonly store: Store;
  readonly accounts: Accounts;
  /** The configured public origin: the issuer, and the domain SIWE messages must name. */
  readonly signInOrigin: () => string;
  readonly publicUrl: (req: Request) => string;
  readonly log: (msg: string, err?: unknown) => void;
}

export function mountOAuth(_app: Express, _deps: OAuthDeps): void {}
