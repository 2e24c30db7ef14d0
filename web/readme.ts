/** Pieces of the README the pages quote (read once; the README stays their one source). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const README = join(import.meta.dirname, '..', 'README.md');

/** The shell block under "## Two commands", or undefined when the README has none. */
export function twoCommands(readme = readReadme()): string | undefined {
  const section = readme?.split(/^## /m).find((s) => s.startsWith('Two commands'));
  return section?.match(/```sh\n([\s\S]*?)```/)?.[1]?.trimEnd();
}

function readReadme(): string | undefined {
  try {
    return readFileSync(README, 'utf8');
  } catch {
    return undefined;
  }
}
