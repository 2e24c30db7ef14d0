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

  it('inside skills/: an engine never imports a skill definition, and the shared folders never reach into a capability', () => {
    const skillsDir = join(root, 'skills');
    const files = sources(skillsDir);
    const defines = (file: string) => /\bdefine(Skill|FreeTool)\(/.test(readFileSync(file, 'utf8')) && !/skills\/core\/(registry|free)\.ts$/.test(file);
    const definitions = new Set(files.filter(defines));
    const found: string[] = [];
    for (const file of files) {
      const from = relative(skillsDir, file);
      const folder = from.split('/')[0]!;
      // Type-only imports carry no code: the shared context names the types its parts implement.
      for (const m of readFileSync(file, 'utf8').matchAll(/^(?:import|export)(?! type)[^;]*?from\s*'(\.[^']+)'/gm)) {
        const target = resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts');
        const to = relative(skillsDir, target);
        if (to.startsWith('..')) continue;
        const toFolder = to.split('/')[0]!;
        const edge = `skills/${from} -> skills/${to}`;
        if (folder !== 'catalog' && !definitions.has(file) && definitions.has(target)) found.push(`engine imports a skill definition: ${edge}`);
        if ((folder === 'core' || folder === 'data') && !['core', 'data'].includes(toFolder) && !(edge in SHARED_EXCEPTIONS)) found.push(`shared piece reaches into a capability: ${edge}`);
        if (folder !== 'catalog' && toFolder === 'catalog') found.push(`only the catalogue names the catalogue: ${edge}`);
      }
    }
    expect(definitions.size).toBeGreaterThan(40);
    expect(found).toEqual([]);
  });
});

/** Shared pieces that use a capability's engine, each with why. */
const SHARED_EXCEPTIONS: Record<string, string> = {
  // Rankings are screened by the security engine's own verdict, the one security-scan answers with (one answer per token).
  'skills/data/screening.ts -> skills/security/scan.ts': 'screen',
  // Admission refuses a forecast-priced call before payment when no forecast slot can serve it.
  'skills/core/admission.ts -> skills/forecast/slots.ts': 'forecast slots',
};

