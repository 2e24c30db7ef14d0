/**
 * The A2A server (docs/protocols.md, "A2A server"): the agent card at `/.well-known/agent-card.json` and the JSON-RPC
 * endpoint at `/a2a` (SendMessage, streaming, GetTask, ListTasks, CancelTask), by `@a2a-js/sdk`
 * in A2A 1.0 with its 0.3 compatibility on. Tasks live in the store, so any instance continues
 * a task another one started.
 *
 * Conformance (the official A2A TCKs 1.0 and 0.3):
 * - Every answer on `/a2a` is JSON-RPC, also for a body the app's JSON parser refused: malformed
 *   JSON is -32700, a body that is not `application/json` is ContentTypeNotSupported (-32005).
 * - A message without parts and a negative `historyLength` are invalid params (-32602), and a
 *   canceled task cannot be canceled again (TaskNotCancelable, -32002).
 * - The card is served per A2A version: 1.0 (the card as built, valid against the 1.0 schema) when
 *   the client asks for it, 0.3 (the SDK's translation, `url` and `protocolVersion` included)
 *   otherwise, since A2A 1.0 §3.6.2 reads an absent version as 0.3. A client asks with the
 *   `A2A-Version` header or query parameter; a request that declares extensions in the 1.0 header
 *   (`A2A-Extensions`) and not in the 0.3 one (`X-A2A-Extensions`) speaks 1.0 too. It carries
 *   `ETag`, `Last-Modified` (the card changes only when the process starts) and `Vary`.
 */
import type { Express, NextFunction, Request, Response } from 'express';
import { AGENT_CARD_PATH, type CancelTaskRequest, type GetTaskRequest, type ListTasksRequest, type Message, type SendMessageRequest, type Task } from '@a2a-js/sdk';
import { ContentTypeNotSupportedError, RequestMalformedError, TaskNotCancelableError } from '@a2a-js/sdk/errors';
import { DefaultRequestHandler, JsonRpcTransportHandler, type ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { TaskState } from '@a2a-js/sdk';
import { SibylA2AExecutor } from '../agent/a2a-executor.js';
import { StoreTaskStore } from '../agent/a2a-task-store.js';
import { A2A_JSONRPC_PATH, buildAgentCard } from '../cards/agent-card.js';
import type { Store } from '../store/store.js';
import { toSibylError } from '../skills/core/error-mapping.js';
import type { PaidRouteDeps } from './paid-routes.js';

const LEGACY = { enabled: true };
const VERSION_HEADER = 'a2a-version';

export function mountA2aServer(app: Express, deps: PaidRouteDeps & { store: Store; version: string }): void {
  const card = (baseUrl: string) => buildAgentCard(deps.registry, deps.paywall.terms, baseUrl, deps.version);
  // The payment resource names the endpoint as the last caller reached it (PUBLIC_URL fixes it).
  let endpoint = `http://localhost${A2A_JSONRPC_PATH}`;
  const executor = new SibylA2AExecutor({ ...deps, endpoint: () => endpoint });
  // Task saves the store cannot take at once are kept and retried (a paid answer never fails on the store).
  const tasks = new StoreTaskStore(deps.store, deps.paywall.outbox);
  const requestHandler = new SibylRequestHandler(card('http://localhost'), tasks, executor);

  // Built from the registry at start: it changes when the process does.
  const lastModified = new Date(Math.floor(Date.now() / 1000) * 1000).toUTCString();
  app.use(`/${AGENT_CARD_PATH}`, (req: Request, res, next) => {
    const version = cardVersion(req);
    // The SDK's handler picks the 1.0 card or its 0.3 translation from this header.
    if (version) req.headers[VERSION_HEADER] = version;
    res.setHeader('Last-Modified', lastModified);
    res.append('Vary', 'A2A-Extensions, X-A2A-Extensions');
    const base = deps.publicUrl(req);
    agentCardHandler({ agentCardProvider: async () => card(base), cache: { maxAge: 60 }, legacyCompat: LEGACY })(req, res, next);
  });

  const rpc = jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat: LEGACY });
  app.use(A2A_JSONRPC_PATH, (req, res, next) => {
    endpoint = `${deps.publicUrl(req)}${A2A_JSONRPC_PATH}`;
    rpc(req, res, next);
  });
  // The app's body parser and media-type check run before the SDK's: their refusals are answered
  // here in JSON-RPC, not in the REST error shape.
  app.use(A2A_JSONRPC_PATH, (err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    const mapped = toSibylError(err);
    const legacy = (req.header('A2A-Version') || '0.3') === '0.3';
    const error = mapped.code === 'invalid_json' ? { code: -32700, message: `Invalid JSON payload: ${mapped.message}.` }
      : mapped.code === 'unsupported_media_type' ? rpcError(new ContentTypeNotSupportedError(`Unsupported Content-Type "${req.header('content-type') ?? ''}"; expected application/json.`), legacy)
      : mapped.code === 'payload_too_large' ? { code: -32600, message: `Invalid request: ${mapped.message}.` }
      : undefined;
    if (!error) return next(err);
    res.status(200).json({ jsonrpc: '2.0', id: null, error });
  });
}

function rpcError(error: unknown, legacy: boolean) {
  return legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error) : JsonRpcTransportHandler.mapToJSONRPCError(error);
}

/** The A2A version a card request asks for; undefined leaves it to the SDK (0.3). */
export function cardVersion(req: Request): string | undefined {
  const asked = req.header('A2A-Version') || (typeof req.query['A2A-Version'] === 'string' ? req.query['A2A-Version'] : undefined);
  if (asked) return asked;
  if (req.header('A2A-Extensions') !== undefined && req.header('X-A2A-Extensions') === undefined) return '1.0';
  return undefined;
}

/** The SDK's handler with the checks the TCKs found missing. */
export class SibylRequestHandler extends DefaultRequestHandler {
  constructor(card: ConstructorParameters<typeof DefaultRequestHandler>[0], private readonly tasks: TaskStore, executor: SibylA2AExecutor) {
    super(card, tasks, executor);
  }

  override async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    checkMessage(params);
    return super.sendMessage(params, context);
  }

  override async *sendMessageStream(params: SendMessageRequest, context: ServerCallContext) {
    checkMessage(params);
    yield* super.sendMessageStream(params, context);
  }

  override async getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    checkHistoryLength(params.historyLength);
    return super.getTask(params, context);
  }

  override async listTasks(params: ListTasksRequest, context: ServerCallContext) {
    checkHistoryLength(params.historyLength);
    return super.listTasks(params, context);
  }

  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    // The SDK answers a second cancel with the canceled task; A2A says a terminal task is not cancelable.
    const task = params.id ? await this.tasks.load(params.id, context) : undefined;
    if (task?.status?.state === TaskState.TASK_STATE_CANCELED) throw new TaskNotCancelableError(`Task not cancelable: ${params.id} is already canceled`);
    return super.cancelTask(params, context);
  }
}

function checkMessage(params: SendMessageRequest): void {
  if (params.message && !(params.message.parts?.length)) throw new RequestMalformedError('message.parts must hold at least one part');
  checkHistoryLength(params.configuration?.historyLength);
}

function checkHistoryLength(historyLength: number | undefined): void {
  if (historyLength !== undefined && historyLength !== null && !(Number.isInteger(historyLength) && historyLength >= 0)) {
    throw new RequestMalformedError(`historyLength must be a non-negative integer, got ${historyLength}`);
  }
}
