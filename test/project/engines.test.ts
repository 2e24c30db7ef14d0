/**
 * The Node the project declares is the Node its dependencies accept: every installed package's
 * `engines.node` admits the lowest version `package.json` allows, and the running Node is one
 * the project allows (`.npmrc` sets engine-strict, so npm refuses a mismatch at install too).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const project = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };

function installedPackages(dir: string, found: { name: string; version: string; node?: string }[] = []) {
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (entry.startsWith('@')) {
      installedPackages(path, found);
      continue;
    }
    const manifest = join(path, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; version: string; engines?: { node?: string } };
      found.push({ name: pkg.name, version: pkg.version, node: pkg.engines?.node });
    }
    if (existsSync(join(path, 'node_modules'))) installedPackages(join(path, 'node_modules'), found);
  }
  return found;
}

describe('declared Node engines', () => {
  const lowest = semver.minVersion(project.engines.node)!.version;

  it('the running Node is one package.json allows', () => {
    expect(semver.satisfies(process.versions.node, project.engines.node)).toBe(true);
  });

  it(`every installed dependency accepts the lowest allowed Node (${lowest})`, () => {
    const packages = installedPackages(join(root, 'node_modules'));
    expect(packages.length).toBeGreaterThan(100);
    const refusing = packages.filter((p) => p.node && !semver.satisfies(lowest, p.node, { includePrerelease: true }));
    expect(refusing.map((p) => `${p.name}@${p.version} wants node ${p.node}`)).toEqual([]);
  });

  it('npm is told to refuse a mismatch at install', () => {
    expect(readFileSync(join(root, '.npmrc'), 'utf8')).toMatch(/^engine-strict=true$/m);
  });
});
