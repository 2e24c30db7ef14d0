/** The world cache's key covers every source a cached world is written by, folders below world/ included. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SOURCE_DIRS, sourceFiles } from '../../world/cache.js';

const root = join(import.meta.dirname, '..', '..');

describe('the world cache key', () => {
  it('hashes every behaviour, module and setup file of the EVM world, and not the Bitcoin chain (cached apart)', async () => {
    const hashed = new Set(await sourceFiles(root, SOURCE_DIRS));
    for (const dir of ['world', 'world/behaviours', 'world/modules', 'chain/artifacts', 'indexer']) {
      for (const f of readdirSync(join(root, dir)).filter((f) => f.endsWith('.ts'))) expect(hashed.has(`${dir}/${f}`), `${dir}/${f}`).toBe(true);
    }
    expect([...hashed].filter((f) => f.startsWith('world/bitcoin/'))).toEqual([]);
  });
});
