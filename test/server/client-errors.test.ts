/**
 * A request node's parser refuses (a bad header line, headers over 16 KiB) is answered and its
 * connection closed (server/errors.ts). The rest of the request, still arriving, is read and
 * dropped while the connection closes: closed with it unread, the kernel reset the connection,
 * and a client still sending could lose the answer to ECONNRESET. The server runs in a process of
 * its own, as in production: in one process with the client, the reads interleave differently.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';

const SERVER = `
import { createServer } from 'node:http';
import { answerClientErrors } from './server/errors.ts';
const server = createServer((_req, res) => res.end('{}'));
server.keepAliveTimeout = 5000;
answerClientErrors(server);
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

describe('a refused request with more of it coming', () => {
  let child: ChildProcess;
  let port: number;
  beforeAll(async () => {
    child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SERVER], { cwd: join(import.meta.dirname, '..', '..'), stdio: ['ignore', 'pipe', 'inherit'] });
    port = await new Promise<number>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
  });
  afterAll(() => {
    child?.kill();
  });

  it('is answered 431 or 400, and the connection closes without a reset', async () => {
    const body = 'x'.repeat(256 * 1024);
    const requests = [
      `POST / HTTP/1.1\r\nHost: x\r\nX-Filler: ${'a'.repeat(20_000)}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      `POST / HTTP/1.1\r\nHost: x\r\nBad Header\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    ];
    const outcomes: string[] = [];
    for (let i = 0; i < 30; i++) {
      outcomes.push(await new Promise<string>((resolve) => {
        let data = '';
        const socket = connect(port, '127.0.0.1', () => socket.write(requests[i % 2]!));
        socket.on('data', (d) => (data += d));
        socket.on('error', (err: NodeJS.ErrnoException) => resolve(`${data.split('\r\n')[0]}, then ${err.code}`));
        socket.on('close', () => resolve(data.split('\r\n')[0]!));
      }));
    }
    expect(new Set(outcomes)).toEqual(new Set(['HTTP/1.1 431 Request Header Fields Too Large', 'HTTP/1.1 400 Bad Request']));
  });
});
