/**
 * The A2A server (spec 4.4): the agent card at `/.well-known/agent-card.json` and the JSON-RPC
 * endpoint at `/a2a` (SendMessage, streaming, GetTask, ListTasks, CancelTask), by `@a2a-js/sdk`
 * in A2A 1.0 with its 0.3 compatibility on. Tasks live in the store, so any instance continues
 * a task another one started.
 */
import type { Express, Request } from 'express';
import { AGENT_CARD_PATH } from '@a2a-js/sdk';
import { DefaultRequestHandler } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { SibylA2AExecutor } from '../agent/a2a-executor.js';
import { StoreTaskStore } from '../agent/a2a-task-store.js';
import { A2A_JSONRPC_PATH, buildAgentCard } from '../cards/agent-card.js';
import type { Store } from '../store/store.js';
import type { PaidRouteDeps } from './paid-routes.js';

const LEGACY = { enabled: true };

export function mountA2aServer(app: Express, deps: PaidRouteDeps & { store: Store; version: string }): void {
  const card = (baseUrl: string) => buildAgentCard(deps.registry, deps.paywall.terms, baseUrl, deps.version);
  // The payment resource names the endpoint as the last caller reached it (PUBLIC_URL fixes it).
  let endpoint = `http://localhost${A2A_JSONRPC_PATH}`;
  const executor = new SibylA2AExecutor({ ...deps, endpoint: () => endpoint });
  const requestHandler = new DefaultRequestHandler(card('http://localhost'), new StoreTaskStore(deps.store), executor);

  app.use(`/${AGENT_CARD_PATH}`, (req: Request, res, next) => {
    agentCardHandler({ agentCardProvider: async () => card(deps.publicUrl(req)), cache: { maxAge: 60 }, legacyCompat: LEGACY })(req, res, next);
  });
  const rpc = jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat: LEGACY });
  app.use(A2A_JSONRPC_PATH, (req, res, next) => {
    endpoint = `${deps.publicUrl(req)}${A2A_JSONRPC_PATH}`;
    rpc(req, res, next);
  });
}
