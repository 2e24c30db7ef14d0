/** wink-lemmatizer ships no types: each function returns the word's lemma for that part of speech, or the word. */
declare module 'wink-lemmatizer' {
  export function noun(word: string): string;
  export function verb(word: string): string;
  export function adjective(word: string): string;
}
