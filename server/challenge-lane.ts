/**
 * The unpaid request's lane: a POST to a paid operation without a payment header is answered
 * here, in front of express, with the same validation, admission and price the express route
 * applies (the same `operationFor`), and a 402 challenge built once per price variant and
 * resource. Everything else (a payment, another route, any body this lane does not read the
 * way express would: chunked, compressed, another media type) goes to express untouched.
 *
 * Why: most traffic to a pay-per-call API is the unpaid first call of each payment, and on two
 * cores express's router and body parser cost more than the challenge itself.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PaidOperation } from '../payments/operation.js';
import type { Paywall } from '../payments/paywall.js';
import type { Resource } from '../payments/terms.js';
import { SibylError } from '../skills/core/errors.js';
import { writeError } from './errors.js';
import { annotate, limitFacts } from './observability/request-scope.js';

/** The largest JSON body accepted, here and by express's parser (app.ts). */
export const MAX_BODY_BYTES = 64 * 1024;
/** Challenges kept (a Host header can vary the resource URL: bounded, oldest dropped). */
const MAX_CACHED = 1_000;
const JSON_TYPE = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

export interface ChallengeLaneOptions {
  /** Exact paths of the paid operations and what a body buys on each (throws SibylError on a bad body). */
  routes: ReadonlyMap<string, (body: unknown) => PaidOperation>;
  paywall: Paywall;
  /** The origin resources are named under: PUBLIC_URL, else the request's own. */
  publicUrl?: string | undefined;
  log: (msg: string, err?: unknown) => void;
}

interface CachedChallenge {
  readonly headers: Record<string, string | number>;
  readonly body: Buffer;
}

/** A request handler that answers unpaid challenges and hands everything else to `next`. */
export function challengeLane(options: ChallengeLaneOptions, next: (req: IncomingMessage, res: ServerResponse) => void) {
  const cache = new Map<string, CachedChallenge>();

  const challengeFor = (operation: PaidOperation, resource: Resource): CachedChallenge => {
    const key = `${operation.amount}\n${resource.url}\n${resource.description}`;
    let hit = cache.get(key);
    if (!hit) {
      const challenge = options.paywall.challenge(operation.amount, resource);
      const body = Buffer.from(JSON.stringify(challenge.body));
      hit = { headers: { ...challenge.headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length }, body };
      if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
      cache.set(key, hit);
    }
    return hit;
  };

  const answer = async (req: IncomingMessage, res: ServerResponse, path: string, buy: (body: unknown) => PaidOperation, raw: Buffer) => {
    try {
      annotate({ route: path }, req);
      const operation = buy(parseJsonObject(raw));
      annotate({ ...limitFacts(operation) }, req);
      await operation.admit?.();
      const origin = options.publicUrl ?? `${(req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'}://${req.headers.host}`;
      const challenge = challengeFor(operation, { url: `${origin}${operation.resourcePath ?? path}`, description: operation.description, mimeType: 'application/json' });
      res.writeHead(402, challenge.headers).end(challenge.body);
    } catch (err) {
      writeError(res, err, options.log);
    }
  };

  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const buy = req.method === 'POST' ? options.routes.get(path) : undefined;
    const h = req.headers;
    const length = Number(h['content-length']);
    if (!buy || h['x-payment'] !== undefined || h['payment-signature'] !== undefined || h['transfer-encoding'] !== undefined ||
        (h['content-encoding'] !== undefined && h['content-encoding'] !== 'identity') || !JSON_TYPE.test(h['content-type'] ?? '') ||
        !/^\d+$/.test(h['content-length'] ?? '') || length < 1 || length > MAX_BODY_BYTES) {
      return next(req, res);
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => void answer(req, res, path, buy, Buffer.concat(chunks)));
  };
}

/** What express.json in strict mode accepts, with the same refusals (errors.ts maps both alike). */
function parseJsonObject(raw: Buffer): unknown {
  const text = raw.toString('utf8').replace(/^\uFEFF/, '');
  const first = /\S/.exec(text)?.[0];
  if (first !== '{' && first !== '[') throw new SibylError('invalid_json', 'the body is not valid JSON');
  try {
    return JSON.parse(text);
  } catch {
    throw new SibylError('invalid_json', 'the body is not valid JSON');
  }
}
