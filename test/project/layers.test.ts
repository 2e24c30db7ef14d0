/**
 * Data flows one way: chain → indexer → store → engine → skill → surface. Each top-level folder
 * has a rank, and a module may import only its own folder or folders of a lower rank, so an
 * engine never reaches into a transport and the infrastructure never into the skills.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

const RANK: Record<string, number> = {
  lib: 0, store: 0,
  chain: 1,
  indexer: 2,
  world: 3, // the simulator drives chains and indexes what it wrote for its cache
  skills: 4, // registry, skills and their engines
  graph: 5, payments: 5,
  cards: 6,
  agent: 7,
  web: 7, // pages for people: read the registry and documents, mounted by the server
  server: 8,
  scripts: 9,
};

/** Known edges against the flow, each with why it stays. */
const EXCEPTIONS: Record<string, string> = {
  // The genesis market's opening prices are the world's reference prices (one price per asset on every chain).
  'chain/genesis.ts -> world': 'reference prices',
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'artifacts') return [];
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

describe('layers', () => {
  it('no module imports a folder of a higher rank', () => {
    const found: string[] = [];
    for (const folder of Object.keys(RANK)) {
      let files: string[];
      try {
        files = sources(join(root, folder));
      } catch {
        continue; // a folder this layout does not have (yet)
      }
      for (const file of files) {
        for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
          const target = relative(root, resolve(dirname(file), m[1]!)).split('/')[0]!;
          if (target === folder || !(target in RANK) || RANK[target]! < RANK[folder]!) continue;
          const edge = `${relative(root, file)} -> ${target}`;
          if (!(edge in EXCEPTIONS)) found.push(edge);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
