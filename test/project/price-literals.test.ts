/**
 * The registry is the only place a price is written: no USD amount ('0.50', '1000.00') appears as
 * a string literal in code outside skills/ (comments, messages and chain amounts such as
 * parseEther('4.25') aside). A price anywhere else is a second copy that drifts.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const SCANNED = ['agent', 'graph', 'server', 'payments', 'cards', 'chain', 'world', 'indexer', 'store', 'lib', 'scripts'];
const SKIPPED = [join('chain', 'artifacts')];
// Single quotes and backticks: code's own literals (double quotes appear inside messages).
const PRICE_LITERAL = /(?<![\w.])(['`])\d+\.\d{2}\1/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (SKIPPED.some((s) => relative(root, path) === s)) return [];
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('price literals', () => {
  it('no USD amount is written as a string literal outside skills/', () => {
    const found: string[] = [];
    for (const file of SCANNED.flatMap((d) => sources(join(root, d)))) {
      readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, '');
        if (/^\s*(\*|\/\*)/.test(code)) return; // a comment line
        for (const m of code.matchAll(PRICE_LITERAL)) {
          if (/parse(Ether|Units)\($/.test(code.slice(0, m.index))) continue; // a chain amount, not a price
          found.push(`${relative(root, file)}:${i + 1}: ${m[0]}`);
        }
      });
    }
    expect(found).toEqual([]);
  });
});
