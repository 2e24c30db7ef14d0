/**
 * The README and docs/ stay true to the repository, in process (no server): the README is a short
 * front door whose "Two commands" block the home page quotes (web/readme.ts), every repository
 * path the docs name in backquotes exists, every environment variable server/config.ts reads is
 * in docs/operations.md, and no code comment cites a document that is not in the repository.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { twoCommands } from '../../web/readme.js';

const root = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const DOCS = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('the documentation', () => {
  it('keeps the README a five-minute read that still gives the home page its two commands', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(300);
    const commands = twoCommands();
    expect(commands).toContain('npm install && npm start');
    expect(commands).toContain('npm test');
  });

  // What Sibyl and the tests write at run time (.gitignore) is named but not in a clean clone.
  const ignored = readFileSync(join(root, '.gitignore'), 'utf8').split('\n').map((l) => l.trim().replace(/^\//, '').replace(/\/$/, '')).filter((l) => l && !l.startsWith('#'));
  const runtime = (path: string) => ignored.some((i) => path === i || path.startsWith(`${i}/`));

  it('names only repository paths that exist', () => {
    const topLevel = new Set(readdirSync(root));
    const missing: string[] = [];
    for (const doc of DOCS) {
      for (const [, quoted] of read(doc).matchAll(/`([^`\s]+)`/g)) {
        const path = quoted!.split(':')[0]!.replace(/[/,.]+$/, '');
        if (!path.includes('/') || !topLevel.has(path.split('/')[0]!) || /[<*]/.test(path) || runtime(path)) continue;
        if (!existsSync(join(root, path))) missing.push(`${doc}: ${path}`);
      }
      for (const [, target] of read(doc).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        if (!existsSync(join(root, doc, '..', target!))) missing.push(`${doc}: link ${target}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('documents every environment variable server/config.ts reads', () => {
    const config = read('server/config.ts');
    const schema = config.slice(config.indexOf('const envSchema'), config.indexOf('});', config.indexOf('const envSchema')));
    const names = [...schema.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(40);
    const operations = read('docs/operations.md');
    for (const dynamic of ['CHAIN_RPC_URL_<CHAIN>', 'FORECAST_BACKEND_<ID>']) expect(operations).toContain(`\`${dynamic}\``);
    expect(names.filter((name) => !operations.includes(`\`${name}\``))).toEqual([]);
  });

  it('cites no document outside the repository in code comments', () => {
    // Written in pieces so this file does not match itself.
    const outside = new RegExp(['DESI' + 'GN\\b', 'FIELD-' + 'NOTES', 'interface-' + 'spec', '\\b[Ss]pec' + '(?:ification)?\\s*(?:§\\s*)?\\d', '\\b[Ss]pec' + ' section', '\\b[Ii]ssue' + '\\s+#?\\d'].join('|'));
    const found: string[] = [];
    for (const file of sources(root)) {
      readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        // Comments only: a block comment's line, or what follows `//` (test names and messages are code).
        const trimmed = line.trim();
        const comment = /^(\/\*|\*)/.test(trimmed) ? trimmed : line.includes('// ') ? line.slice(line.indexOf('// ')) : '';
        // A public protocol's own sections (A2A, a2a-x402) are citable; an unnamed "§4.6" is not.
        const bareSection = /§\s*\d/.test(comment) && !/A2A|a2a-x402/.test(comment);
        if (outside.test(comment) || bareSection) found.push(`${relative(root, file)}:${i + 1}: ${trimmed}`);
      });
    }
    expect(found).toEqual([]);
  });
});
