/**
 * Ranks the agent's tools against a prompt from what the registry says about each skill: its
 * id, title and tags weigh most, then its examples, then its description. Terms are stemmed and
 * weighted by how few skills use them (inverse document frequency), so words every skill shares
 * ("token", "chain") decide nothing. How well the prompt's facts fit the skill's arguments moves
 * the score: a transaction hash favours skills that take one, a missing required address
 * disfavours skills that need one.
 */
import { lemmaOf, spelledOut, stem, termParts, type PromptFacts } from './facts.js';
import { synonymsOf } from './synonyms.js';
import { CHAIN_NAMES } from '../../chain/chains.js';
import { CANONICAL_ASSETS, canonicalAsset } from '../../skills/data/resolve.js';
import { OTHER_CHAINS, addressCapacity, classifyFields, takes, type FieldRole } from './args.js';
import { glossaryWords } from './choices.js';
import { isWorking, type DeploymentPart } from '../../skills/core/registry.js';
import { EQUITIES } from '../../lib/equities.js';
import { DISABLED_DOMAINS, missingCapability } from '../../skills/catalog/planned.js';
import type { AgentTool } from '../tools.js';
import type { Dossier } from './dossiers.js';

const FIELD_WEIGHTS = { name: 3, tags: 3, examples: 2, description: 1 } as const;
/** A synonym counts half (as a partial match does): it may carry another sense of the word. */
const SYNONYM_SHARE = 0.5;
/** A compound matched through its parts counts half too. */
const COMPOUND_SHARE = 0.5;
/** A skill that can take only some of the addresses a prompt names fits this much worse. */
const PARTIAL_ADDRESS_FIT = 0.8;
/** Two of the prompt's words in a row that are a skill's two-word tag add half that tag's weight again. */
const PHRASE_SHARE = 0.5;

export interface Ranked {
  readonly tool: AgentTool;
  readonly score: number;
  /** The prompt's terms the skill's words match, with what each added to the score. */
  readonly matched: ReadonlyMap<string, number>;
  /** Set when a dossier ranked here: `tool` is then its first part (whose arguments it takes). */
  readonly dossier?: Dossier;
}

/** A subject's words: a stem (or a two-stem phrase) named in any form (null), or only in these lemmas. */
type Subject = ReadonlyMap<string, ReadonlySet<string> | null>;

export class ToolIndex {
  private readonly docs: { tool: AgentTool; weights: Map<string, number>; counted: ReadonlySet<string>; roles: Map<string, FieldRole>; home: string | null; dossier?: Dossier; subject?: Subject; tickers?: ReadonlySet<string> }[];
  private readonly idf = new Map<string, number>();
  /** Every word the registry uses, lower-case: a capitalised one of these is not a ticker. */
  readonly vocabulary: ReadonlySet<string>;

  constructor(readonly tools: readonly AgentTool[], dossiers: readonly Dossier[] = []) {
    const vocabulary = new Set<string>();
    const document = (words: { name: string; tags: readonly string[]; examples: readonly string[]; description: string; domainWords?: readonly string[]; choiceWords?: readonly string[] }) => {
      const weights = new Map<string, number>();
      // Examples name real tokens (DEGEN, WETH): their words are not vocabulary that rules out a ticker.
      const add = (text: string, weight: number, isVocabulary = true) => {
        // A token the registry names in capitals ("WETH", "BTC": a canonical asset or one standing for it) is a ticker there too, not vocabulary.
        const tickers = new Set(text.split(/[^A-Za-z0-9]+/).filter((w) => /^[A-Z][A-Z0-9]{1,9}$/.test(w) && (CANONICAL_ASSETS.includes(w) || canonicalAsset(w) !== w)).map((w) => w.toLowerCase()));
        for (const word of wordsOf(text)) {
          if (isVocabulary && !tickers.has(word)) vocabulary.add(word);
          const term = stem(spelledOut(word));
          weights.set(term, Math.max(weights.get(term) ?? 0, weight));
        }
      };
      add(words.name, FIELD_WEIGHTS.name);
      add(words.tags.join(' ').replace(/-/g, ' '), FIELD_WEIGHTS.tags);
      // WordNet synonyms of the name and tag words, at half a tag word's weight ("earn" → make, gain).
      const own = new Set(weights.keys());
      for (const word of wordsOf(`${words.name} ${words.tags.join(' ').replace(/-/g, ' ')}`)) {
        for (const synonym of synonymsOf(lemmaOf(word))) {
          const term = stem(synonym);
          if (!own.has(term)) weights.set(term, Math.max(weights.get(term) ?? 0, FIELD_WEIGHTS.tags * SYNONYM_SHARE));
        }
      }
      // The words people use for a domain this deployment lacks weigh as examples (below its entries' own
      // tags, which tell its entries apart), without synonyms; not vocabulary, so a venue that is
      // also a ticker ("DYDX" in capitals) stays a ticker.
      const domainWords = words.domainWords ?? [];
      add(domainWords.join(' ').replace(/-/g, ' '), FIELD_WEIGHTS.examples, false);
      // A compound tag is also a phrase ("fresh-pools" → "fresh pool"): the prompt's words in that order match it whole.
      for (const [tags, weight] of [[words.tags, FIELD_WEIGHTS.tags], [domainWords, FIELD_WEIGHTS.examples]] as const) {
        for (const tag of tags) {
          const phrase = wordsOf(tag).map((w) => stem(spelledOut(w))).join(' ');
          if (phrase.split(' ').length === 2) weights.set(phrase, Math.max(weights.get(phrase) ?? 0, weight));
        }
      }
      add(words.examples.join(' '), FIELD_WEIGHTS.examples, false);
      add(words.description, FIELD_WEIGHTS.description);
      // The words people use for what the skill's choices answer (choices.ts) weigh as its description
      // does, but leave the other skills' word weights as they were: they are not counted in how many skills use a word.
      const counted = new Set(weights.keys());
      add((words.choiceWords ?? []).join(' '), FIELD_WEIGHTS.description, false);
      return { weights, counted };
    };
    this.docs = tools.map((tool) => {
      const { skill } = tool;
      const domain = missingCapability(skill)?.domain;
      const roles = classifyFields(tool);
      const choiceWords = [...roles.values()].flatMap((role) => (role.kind === 'choice' ? glossaryWords(role.values!) : []));
      const { weights, counted } = document({ ...skill, name: `${skill.id.replace(/-/g, ' ')} ${tool.name.replace(/_/g, ' ')} ${skill.title}`, domainWords: domain && DISABLED_DOMAINS[domain].words, choiceWords });
      return { tool, weights, counted, roles, home: homeChainOf(skill, roles) };
    });
    // A dossier whose parts are all served here is ranked like a skill, with its first part's arguments.
    for (const dossier of dossiers) {
      const parts = dossier.parts.map((id) => tools.find((t) => t.skill.id === id));
      const first = parts[0];
      if (!first || parts.some((t) => !t || !isWorking(t.skill))) continue;
      this.docs.push({ tool: first, ...document({ ...dossier, name: `${dossier.id.replace(/-/g, ' ')} ${dossier.title}` }), roles: classifyFields(first), home: null, dossier });
    }
    for (const [doc, subject] of subjects(this.docs)) {
      doc.subject = subject;
      const tickers = (doc.tool.skill.needs ?? []).flatMap((part) => [...(PART_TICKERS[part] ?? [])]);
      if (tickers.length) doc.tickers = new Set(tickers);
    }
    // Document frequency over the skills, a capability not here counting once for its whole domain:
    // the many entries the spec plans for one domain do not make the words of the rest rarer.
    const df = new Map<string, number>();
    const counted = new Map<string, Set<string>>();
    let n = 0;
    for (const doc of this.docs) {
      const domain = missingCapability(doc.tool.skill)?.domain;
      const seen = domain ? (counted.get(domain) ?? new Set<string>()) : new Set<string>();
      if (!domain || !counted.has(domain)) n++;
      if (domain) counted.set(domain, seen);
      for (const term of doc.counted) {
        if (seen.has(term)) continue;
        seen.add(term);
        df.set(term, (df.get(term) ?? 0) + 1);
      }
    }
    for (const term of new Set(this.docs.flatMap((d) => [...d.weights.keys()]))) {
      const count = df.get(term) ?? 0;
      this.idf.set(term, Math.log(1 + (n - count + 0.5) / (count + 0.5)));
    }
    this.vocabulary = vocabulary;
  }

  rank(facts: PromptFacts): Ranked[] {
    const terms = [...new Set(facts.terms)];
    const phrases = phrasesOf(facts.terms);
    return this.docs
      .map(({ tool, weights, roles, home, dossier, subject, tickers }) => {
        let score = 0;
        const matched = new Map<string, number>();
        const single = (term: string) => (this.idf.get(term) ?? 0) * (weights.get(term) ?? 0) || partialMatch(term, weights, this.idf);
        for (const term of terms) {
          // A compound is one term: the mean of its parts' matches (each part its best alternative), at
          // half weight when it has several parts, as a partial match: the registry's words are split, so
          // "front-running" there may be "front" and "running" apart.
          const parts = termParts(term);
          const add = (parts.reduce((sum, alternatives) => sum + Math.max(...alternatives.map(single)), 0) / parts.length) * (parts.length > 1 ? COMPOUND_SHARE : 1);
          if (add > 0) matched.set(term, add);
          score += add;
        }
        for (const phrase of phrases) score += PHRASE_SHARE * (this.idf.get(phrase) ?? 0) * (weights.get(phrase) ?? 0);
        // A skill with a subject of its own (a capability not here, the post-quantum family) never wins on words it shares with others.
        if (subject && !namesSubject(terms, subject, facts.forms) && !facts.symbols.some((s) => tickers?.has(s))) return { tool, score: 0, matched: new Map<string, number>(), ...(dossier && { dossier }) };
        const fit = argumentFit(facts, roles, home);
        return { tool, score: fit === 0 ? 0 : score * fit + argumentBonus(facts, roles), matched, ...(dossier && { dossier }) };
      })
      // Equal fits: a dossier (a broad question answered broadly), then the cheaper skill (a chart before a chart with a forecast).
      .sort((a, b) => b.score - a.score || Number(!!b.dossier) - Number(!!a.dossier) || Number(a.tool.skill.priceRange.min - b.tool.skill.priceRange.min) || a.tool.name.localeCompare(b.tool.name));
  }
}

/**
 * Two-word phrases of the prompt: each two words in a row ("fresh pools"). A compound the prompt
 * writes ("front-running") is one term already, matched through its parts at half weight.
 */
function phrasesOf(terms: readonly string[]): Set<string> {
  const phrases = new Set<string>();
  const single = terms.map((t) => (/[-|]/.test(t) ? null : t));
  single.forEach((t, i) => {
    if (t && single[i + 1]) phrases.add(`${t} ${single[i + 1]}`);
  });
  return phrases;
}

/** A stem that is a prefix of a registry stem (or the reverse), at half weight: "snipe" / "sniper". */
function partialMatch(term: string, weights: ReadonlyMap<string, number>, idf: ReadonlyMap<string, number>): number {
  if (term.length < 4) return 0;
  let best = 0;
  for (const [other, weight] of weights) {
    if (other.length < 4 || other === term) continue;
    if (other.startsWith(term) || term.startsWith(other)) best = Math.max(best, 0.5 * weight * (idf.get(other) ?? 0));
  }
  return best;
}

/**
 * The one chain a skill without a chain field is about, when its id names one
 * ("bitcoin-mempool-intelligence"): a prompt that names only other chains is not about it.
 */
function homeChainOf(skill: { id: string; tags: readonly string[] }, roles: ReadonlyMap<string, FieldRole>): string | null {
  if ([...roles.values()].some((r) => r.kind === 'chain' || r.kind === 'chains')) return null;
  // Named in its id, or (a chain outside the EVM catalogue: "brc20-analytics" is Bitcoin's) its first tag.
  return skill.id.split('-').find((w) => (CHAIN_NAMES as readonly string[]).includes(w) || OTHER_CHAINS.includes(w)) ?? (OTHER_CHAINS.includes(skill.tags[0] ?? '') ? skill.tags[0]! : null);
}

/** Words that say a prompt is about a chain outside the EVM catalogue (stemmed as prompt terms are). */
const HOME_CHAIN_WORDS: Readonly<Record<string, ReadonlySet<string>>> = {
  bitcoin: new Set(['bitcoin', 'btc', 'sat', 'sats', 'satoshi', 'brc20', 'ordinal', 'inscription', 'rune', 'runestone', 'babylon', 'wbtc', 'btcb', 'mempool'].map((w) => stem(w))),
};

/** Whether the prompt speaks of a chain outside the EVM catalogue: its words, or an address of that chain. */
export function promptNamesChain(facts: PromptFacts, chain: string): boolean {
  const words = HOME_CHAIN_WORDS[chain] ?? new Set([stem(chain)]);
  // A word, a compound's part ("BRC-20"), a ticker ("BTC") or an address of that chain.
  return (
    facts.terms.some((t) => termParts(t).some((alternatives) => alternatives.some((a) => words.has(a)))) ||
    facts.symbols.some((s) => words.has(stem(s))) ||
    facts.addresses.some((a) => a.kind === chain)
  );
}

/** Scales a skill down when the prompt cannot give it what it requires or names a chain it lacks. */
function argumentFit(facts: PromptFacts, roles: ReadonlyMap<string, FieldRole>, home: string | null): number {
  let fit = 1;
  // A Bitcoin skill is about Bitcoin: a prompt that never speaks of it ("top holders" of a token,
  // the custody of a tokenized stock) is not its question, whatever words they share.
  if (home && OTHER_CHAINS.includes(home) && !promptNamesChain(facts, home)) return 0;
  if (home && facts.chains.length && !(facts.chains as readonly string[]).includes(home)) fit *= 0.6;
  for (const role of roles.values()) {
    const fillable = facts.addresses.some((a) => takes(role, a));
    // "Is my wallet exposed?" is about an address the skill needs: it is asked for, not held against the skill.
    if (role.required && !facts.ownAccountUnwritten && (role.kind === 'address' || role.kind === 'addresses') && !fillable && !(role.acceptsSymbol && facts.symbols.length)) fit *= 0.5;
    if (role.required && role.kind === 'txHash' && !facts.txHashes.length) fit *= 0.5;
    if (role.kind === 'chain' && facts.chains.length && !facts.chains.some((c) => role.values!.includes(c))) fit *= 0.6;
  }
  // A prompt that names an address or a transaction is about that thing: skills that cannot take one
  // (an EVM-only skill, for a Bitcoin address) fit worse.
  const kinds = new Set([...roles.values()].map((r) => r.kind));
  if (facts.addresses.length && !facts.addresses.some((a) => [...roles.values()].some((r) => takes(r, a)))) fit *= 0.6;
  // One that takes some of the addresses named but not all ("move 0x.. to 0x..") answers part of it.
  else if (facts.addresses.length > addressCapacity(roles)) fit *= PARTIAL_ADDRESS_FIT;
  if (facts.txHashes.length && !kinds.has('txHash')) fit *= 0.5;
  return fit;
}

/** Favours skills that take what the prompt is specific about: a transaction hash, an address of the kind named. */
function argumentBonus(facts: PromptFacts, roles: ReadonlyMap<string, FieldRole>): number {
  let bonus = 0;
  const fields = [...roles.entries()];
  if (facts.txHashes.length && fields.some(([, r]) => r.kind === 'txHash')) bonus += 3;
  for (const address of facts.addresses) {
    const addressFields = fields.filter(([, r]) => takes(r, address));
    if (address.cue && addressFields.some(([name]) => name.toLowerCase().includes(address.cue!))) bonus += 1.5;
    else if (addressFields.length) bonus += 0.5;
  }
  return bonus;
}

/**
 * Tickers that name the subject of the skills reading a deployment part when a prompt writes one
 * (in capitals, as tickers are read): the listed companies whose shares tokenized stocks wrap.
 */
const PART_TICKERS: Partial<Record<DeploymentPart, ReadonlySet<string>>> = { stocks: new Set(Object.keys(EQUITIES)) };

/** Skills of one family share a first tag; one of at least this many is a family with a subject of its own. */
const FAMILY_SIZE = 3;

/**
 * The subjects a prompt must name for a skill to fit, read from the registry, never listed here:
 *
 * - a capability this deployment lacks (skills/catalog/planned.ts) is recognised by the tags of
 *   its domain's entries and the words people use for the domain (DISABLED_DOMAINS) that no skill
 *   Sibyl has carries ("polymarket", "longshot", "congress", "perps", "open interest", "song"),
 *   never by one it shares with one ("generate", "yield", "whales");
 * - a family of skills sharing a first tag that no other skill carries (the post-quantum skills:
 *   "quantum") answers its own subject, named by its members' tags that no skill outside it
 *   carries ("pqc", "ml-kem", "signing"), never a question that merely shares a verb or a noun
 *   with it ("generate", "portfolio", "wallet"). Three skills make a family, and so does one that
 *   reads a domain of its own (a deployment part it needs: the tokenized-stock skill, named by
 *   "stocks", "shares", "premium", "issuer", not "owner" or "volume"), whose things' own names
 *   name it too (PART_TICKERS: "MSFT").
 *
 * A tag of one word is a word; of two, a phrase ("prediction-markets" is "predict market"). A word
 * that shares only its stem with another skill's ("earnings" with yield's "earn") is a subject word
 * in its own form only.
 */
function subjects<D extends { tool: AgentTool; dossier?: Dossier }>(docs: readonly D[]): Map<D, Subject> {
  const tagsOf = (doc: D) => {
    const domain = !doc.dossier && missingCapability(doc.tool.skill)?.domain;
    return [...(doc.dossier ?? doc.tool.skill).tags, ...(domain ? DISABLED_DOMAINS[domain].words : [])];
  };
  // A tag of one word is a word, with its lemma; of two, a phrase ("prediction-markets": "predict
  // market"), so "near-certain" is not "near" and "certain" apart.
  const ownWords = (doc: D) => {
    const words = new Map<string, Set<string> | null>();
    for (const parts of tagsOf(doc).map(wordsOf)) {
      if (parts.length === 2) words.set(parts.map((w) => stem(spelledOut(w))).join(' '), null);
      if (parts.length !== 1) continue;
      const word = spelledOut(parts[0]!);
      const term = stem(word);
      const lemmas = words.get(term) ?? new Set<string>();
      words.set(term, lemmas.add(lemmaOf(word)));
    }
    return words;
  };
  const wordsOfDocs = (group: readonly D[]) => {
    const all = new Map<string, Set<string> | null>();
    for (const doc of group) {
      for (const [word, lemmas] of ownWords(doc)) {
        const seen = all.get(word);
        all.set(word, lemmas && seen !== null ? new Set([...(seen ?? []), ...lemmas]) : null);
      }
    }
    return all;
  };
  const groups = new Map<string, { members: D[]; planned: boolean }>();
  const join = (key: string, doc: D, planned: boolean) => {
    const group = groups.get(key) ?? { members: [], planned };
    group.members.push(doc);
    groups.set(key, group);
  };
  for (const doc of docs) {
    if (doc.dossier) continue;
    const lacking = missingCapability(doc.tool.skill);
    if (lacking) join(`domain:${lacking.domain}`, doc, true);
    else if (doc.tool.skill.tags[0]) join(`family:${doc.tool.skill.tags[0]}`, doc, false);
  }
  const subjectOf = new Map<D, Subject>();
  for (const [key, { members, planned }] of groups) {
    // A dossier's words are words Sibyl answers to ("safe", "rundown"): they count as used.
    const outside = docs.filter((d) => !members.includes(d) && (!planned || d.dossier || !missingCapability(d.tool.skill)));
    const used = wordsOfDocs(outside);
    // A family is three skills or more, or skills that read a domain of their own (a deployment part they need: the stock chain).
    const family = members.length >= FAMILY_SIZE || members.every((d) => !!d.tool.skill.needs?.length);
    if (!planned && (!family || used.has(wordsOf(key.slice('family:'.length)).map((w) => stem(spelledOut(w))).join(' ')))) continue;
    const subject = new Map<string, ReadonlySet<string> | null>();
    for (const [word, lemmas] of wordsOfDocs(members)) {
      const other = used.get(word);
      if (other === undefined) subject.set(word, null);
      else if (lemmas && other) {
        // The stem is another skill's word too: only the forms it is not (earnings, not earn) name the subject.
        const only = new Set([...lemmas].filter((l) => !other.has(l)));
        if (only.size) subject.set(word, only);
      }
    }
    for (const member of members) subjectOf.set(member, subject);
  }
  return subjectOf;
}

/** A word that starts with a subject word names it when it adds at most this many letters ("congressional", not "photosynthesis" for "photo"). */
const MAX_SUFFIX = 4;

/**
 * Whether the prompt names one of the subject's words: a term (or one starting with it, as the
 * ranking's partial match reads "congressional" for "congress"), a compound's part, two terms in a
 * row, or a two-part compound. A word named only in some forms counts in those forms.
 */
function namesSubject(terms: readonly string[], subject: Subject, forms: PromptFacts['forms']): boolean {
  const names = (word: string) => {
    const only = subject.get(word);
    if (only === null) return true;
    if (only) return [...(forms.get(word) ?? [])].some((l) => only.has(l));
    return word.length >= 4 && [...subject].some(([s, o]) => o === null && s.length >= 4 && !s.includes(' ') && Math.abs(s.length - word.length) <= MAX_SUFFIX && (word.startsWith(s) || s.startsWith(word)));
  };
  const compounds = terms.map(termParts).filter((parts) => parts.length === 2).flatMap(([a, b]) => a!.flatMap((x) => b!.map((y) => `${x} ${y}`)));
  return terms.some((t) => termParts(t).some((alternatives) => alternatives.some(names))) || [...phrasesOf(terms), ...compounds].some((p) => subject.has(p));
}

function wordsOf(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1 && /[a-z]/.test(w));
}
