/**
 * A loopback JSON-RPC proxy in front of a node that can make the chain unreachable for
 * transaction submission: with `dropSends` on, any request carrying `eth_sendRawTransaction`
 * has its connection destroyed without being forwarded (the node never sees it); with
 * `dropSendReplies` it is forwarded and the answer lost instead; `beforeSend`
 * runs before a submission is forwarded and `afterSend` once the node took it, before its answer
 * goes back (a test kills something at that exact moment); `beforeCall` runs before any other
 * request is forwarded, with its calls. Every
 * forwarded raw transaction is kept, so a test can count submissions of one authorization.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const SEND = 'eth_sendRawTransaction';

export interface RpcProxy {
  readonly url: string;
  /** Destroy submissions instead of forwarding them. */
  dropSends: boolean;
  /** Forward submissions, then destroy the connection instead of answering (the node took it, the caller cannot know). */
  dropSendReplies: boolean;
  /** Awaited before a submission is forwarded. */
  beforeSend: (() => Promise<void>) | undefined;
  /** Awaited once the node answered a submission, before the answer is passed on. */
  afterSend: (() => Promise<void>) | undefined;
  /** Awaited before a request without a submission is forwarded. */
  beforeCall: ((calls: readonly { method: string; params?: unknown[] }[]) => Promise<void>) | undefined;
  /** Raw transactions forwarded to the node, in order. */
  readonly forwarded: readonly string[];
  /** Submissions destroyed while `dropSends` was on. */
  readonly dropped: number;
  /** JSON-RPC calls seen per method (each call of a batch counts). */
  readonly methods: Readonly<Record<string, number>>;
  close(): Promise<void>;
}

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const forwarded: string[] = [];
  const methods: Record<string, number> = {};
  let dropped = 0;
  const proxy: RpcProxy = {
    url: '',
    dropSends: false,
    dropSendReplies: false,
    beforeSend: undefined,
    afterSend: undefined,
    beforeCall: undefined,
    forwarded,
    methods,
    get dropped() {
      return dropped;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    let calls: { method: string; params?: unknown[] }[] = [];
    try {
      const parsed = JSON.parse(body) as { method: string } | { method: string }[];
      calls = Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      // forwarded as it is; the node answers the parse error
    }
    for (const c of calls) methods[c.method] = (methods[c.method] ?? 0) + 1;
    const sends = calls.filter((c) => c.method === SEND);
    if (sends.length && proxy.dropSends) {
      dropped += sends.length;
      res.socket?.destroy();
      return;
    }
    if (sends.length && proxy.beforeSend) await proxy.beforeSend();
    if (!sends.length && proxy.beforeCall) await proxy.beforeCall(calls);
    for (const s of sends) forwarded.push(String(s.params?.[0]));
    try {
      const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      if (sends.length && proxy.afterSend) await proxy.afterSend();
      if (sends.length && proxy.dropSendReplies) {
        res.socket?.destroy();
        return;
      }
      res.writeHead(upstream.status, { 'content-type': 'application/json' });
      res.end(await upstream.text());
    } catch (err) {
      res.writeHead(502).end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  (proxy as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
