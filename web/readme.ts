/** Pieces of the README the pages quote (read once; the README stays their one source). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_HOST, DEFAULT_PORT } from '../lib/listen.js';

const README = join(import.meta.dirname, '..', 'README.md');

/** The shell block under "## Two commands", or undefined when the README has none. */
export function twoCommands(readme = readReadme()): string | undefined {
  const section = readme?.split(/^## /m).find((s) => s.startsWith('Two commands'));
  return section?.match(/```sh\n([\s\S]*?)```/)?.[1]?.trimEnd();
}

/**
 * README text as this server's pages show it: the README names the default address
 * (http://127.0.0.1:4021, or localhost), the page the address it is served from.
 */
export function atServer(text: string, serverUrl: string): string {
  return text.replace(new RegExp(`http://(?:${DEFAULT_HOST.replaceAll('.', '\\.')}|localhost):${DEFAULT_PORT}(?![0-9])`, 'g'), serverUrl);
}

function readReadme(): string | undefined {
  try {
    return readFileSync(README, 'utf8');
  } catch {
    return undefined;
  }
}
