/**
 * Writes a JSON-RPC answer whose result is one long hex string (anvil_dumpState: a chain's
 * gzipped state, tens of MB of hex) to a file as bytes, a network chunk at a time. Parsing the
 * answer whole (JSON, then hex) held the event loop for up to 1.4 s per chain while the world
 * cache was written; chunk by chunk, no step takes more than a fraction of a millisecond.
 */
import { open } from 'node:fs/promises';

const RESULT_START = /"result"\s*:\s*"(?:0x)?/;
/** How much of the answer is read looking for the result before it is taken for an error. */
const HEAD_LIMIT = 64 * 1024;

export async function writeHexResult(body: AsyncIterable<Uint8Array>, path: string, what: string): Promise<void> {
  const file = await open(path, 'w');
  try {
    let head = ''; // the answer up to the result's first hex digit (latin1: hex and JSON syntax are ASCII)
    let started = false;
    let carry = ''; // an odd hex digit left from the chunk before
    let ended = false;
    for await (const chunk of body) {
      if (ended) continue; // the closing brace after the string
      let text = Buffer.from(chunk).toString('latin1');
      if (!started) {
        head += text;
        const match = RESULT_START.exec(head);
        if (!match) {
          if (head.length > HEAD_LIMIT) throw new Error(`${what}: the answer holds no result`);
          continue;
        }
        started = true;
        text = head.slice(match.index + match[0].length);
        head = '';
      }
      const quote = text.indexOf('"');
      if (quote >= 0) {
        text = text.slice(0, quote);
        ended = true;
      }
      text = carry + text;
      const even = text.length - (text.length % 2);
      carry = text.slice(even);
      const bytes = Buffer.from(text.slice(0, even), 'hex');
      if (bytes.length * 2 !== even) throw new Error(`${what}: the result is not hex`);
      await file.write(bytes);
    }
    if (!started) throw new Error(`${what}: ${errorMessage(head)}`);
    if (!ended || carry) throw new Error(`${what}: the answer ended inside its result`);
  } finally {
    await file.close();
  }
}

function errorMessage(answer: string): string {
  try {
    return (JSON.parse(answer) as { error?: { message?: string } }).error?.message ?? 'no result';
  } catch {
    return 'no result';
  }
}
