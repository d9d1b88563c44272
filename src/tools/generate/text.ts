/** Synthetic display names and definitions: a pure function of (seed, system, code index, version). */
import { hash, Random } from './random.ts';

export const WORDS = [
  'acute',
  'chronic',
  'primary',
  'secondary',
  'partial',
  'complete',
  'lateral',
  'medial',
  'upper',
  'lower',
  'anterior',
  'posterior',
  'left',
  'right',
  'bilateral',
  'recurrent',
  'initial',
  'subsequent',
  'open',
  'closed',
  'fracture',
  'infection',
  'lesion',
  'disorder',
  'syndrome',
  'injury',
  'deficiency',
  'obstruction',
  'inflammation',
  'stenosis',
  'femur',
  'tibia',
  'radius',
  'ulna',
  'humerus',
  'clavicle',
  'vertebra',
  'kidney',
  'liver',
  'lung',
  'artery',
  'vein',
  'nerve',
  'tendon',
  'ligament',
  'cartilage',
  'membrane',
  'gland',
  'valve',
  'duct',
  'steel',
  'copper',
  'aluminium',
  'cotton',
  'wool',
  'polymer',
  'ceramic',
  'glass',
  'timber',
  'paper',
  'machine',
  'apparatus',
  'component',
  'assembly',
  'fitting',
  'fastener',
  'container',
  'instrument',
  'sensor',
  'motor',
  'serum',
  'plasma',
  'urine',
  'blood',
  'tissue',
  'fluid',
  'specimen',
  'culture',
  'antibody',
  'antigen',
  'with',
  'without',
  'of',
  'and',
  'or',
  'for',
  'in',
  'due to',
  'not elsewhere classified',
  'unspecified',
] as const;

const QUALIFIERS = [
  'type A',
  'type B',
  'type C',
  'grade I',
  'grade II',
  'grade III',
  'stage 1',
  'stage 2',
  'class X',
  'class Y',
  'variant 1',
  'variant 2',
  'form a',
  'form b',
  'series 100',
  'series 200',
  'mark II',
  'mark III',
] as const;

const SENTENCES = [
  'Used when the condition is confirmed by examination',
  'Includes cases documented in the referral',
  'Excludes forms described under a more specific code',
  'Applies to goods presented in bulk or in retail packages',
  'Measured in the specimen as received by the laboratory',
  'Reported once per episode of care',
  'Covers parts and accessories not specified elsewhere',
  'Use an additional code to identify the cause',
  'Assign only when no more specific code applies',
  'Valid for claims submitted after the effective date',
] as const;

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/*
 * Word-like vocabulary, so that search classes mean what they say: thousands
 * of distinct words (some accented), drawn skewed towards the first ones the
 * way word frequencies are, sharing prefixes the way real words do. The real
 * words above come first (the most frequent); the rest are syllable words made
 * from a fixed seed, the same for every data set. DEFINITION_ONLY words begin
 * with "qu", which no other word does: they appear only in definitions.
 */
const SYLLABLES = [
  'ab',
  'ac',
  'al',
  'an',
  'ar',
  'ba',
  'be',
  'bi',
  'bro',
  'ca',
  'car',
  'co',
  'cu',
  'de',
  'di',
  'do',
  'el',
  'en',
  'er',
  'fa',
  'fe',
  'fi',
  'ga',
  'gi',
  'ha',
  'he',
  'hy',
  'il',
  'in',
  'is',
  'ka',
  'la',
  'le',
  'li',
  'lo',
  'ma',
  'me',
  'mi',
  'mo',
  'my',
  'na',
  'ne',
  'no',
  'nu',
  'or',
  'os',
  'pa',
  'pe',
  'po',
  'pro',
  'ra',
  're',
  'ri',
  'ro',
  'sa',
  'se',
  'si',
  'so',
  'ta',
  'te',
  'ti',
  'to',
  'tra',
  'tu',
  'ul',
  'ur',
  'va',
  've',
  'vi',
  'vo',
  'za',
  'zé',
  'tö',
  'mü',
  'sã',
  'né',
] as const;
const VOCABULARY_SIZE = 8000;
const DEFINITION_ONLY_SIZE = 600;

function syllableWord(rnd: Random, syllables: number): string {
  let word = '';
  for (let i = 0; i < syllables; i++) word += rnd.pick(SYLLABLES);
  return word;
}

function buildVocabulary(): { vocabulary: string[]; definitionOnly: string[] } {
  const rnd = new Random(0x5ea4c4);
  const words = new Set<string>(WORDS.filter((w) => !w.includes(' ')));
  while (words.size < VOCABULARY_SIZE) words.add(syllableWord(rnd, 2 + rnd.int(3)));
  const definitionOnly = new Set<string>();
  while (definitionOnly.size < DEFINITION_ONLY_SIZE) definitionOnly.add(`qu${syllableWord(rnd, 2 + rnd.int(2))}`);
  return { vocabulary: [...words], definitionOnly: [...definitionOnly] };
}

const BUILT = buildVocabulary();
/** Every word displays and definitions draw from, the most frequent first. */
export const VOCABULARY: readonly string[] = BUILT.vocabulary;
/** Words found only in definitions (one definition in twenty holds one). */
export const DEFINITION_ONLY: readonly string[] = BUILT.definitionOnly;

/** A vocabulary word, skewed towards the start of the list (index ∝ u^3: the first 1 % of words make ~20 % of uses). */
export function skewedWord(rnd: Random): string {
  return VOCABULARY[Math.floor(VOCABULARY.length * rnd.next() ** 3)]!;
}

/** 20 to 60 characters of words, ending in a qualifier that rotates with the version. */
export function displayText(seed: number, system: number, index: number, version: number): string {
  const rnd = new Random(hash(seed, system, index, 1, version));
  const target = 20 + rnd.int(41);
  const qualifier = QUALIFIERS[(hash(seed, system, index, 2) + version) % QUALIFIERS.length]!;
  let text = capitalise(skewedWord(rnd));
  // Leave room for ", " + qualifier; a comma now and then exercises CSV quoting.
  for (let next = skewedWord(rnd); text.length + 1 + next.length + 2 + qualifier.length <= target; next = skewedWord(rnd)) text += ` ${next}`;
  text += `${rnd.int(3) === 0 ? ',' : ''} ${qualifier}`;
  return text.length > 60 ? text.slice(0, 60).trimEnd() : text;
}

/** A sentence and 6 to 12 words (one definition in twenty also holds a definition-only word); null for one code in ten until its first revision. */
export function definitionText(seed: number, system: number, index: number, version: number): string | null {
  if (version === 0 && hash(seed, system, index, 3) % 10 === 0) return null;
  const rnd = new Random(hash(seed, system, index, 4, version));
  let text = `${rnd.pick(SENTENCES)}.`;
  const words = 6 + rnd.int(7);
  text += ` ${capitalise(skewedWord(rnd))}`;
  for (let i = 1; i < words; i++) text += ` ${skewedWord(rnd)}`;
  if (rnd.int(20) === 0) text += ` ${rnd.pick(DEFINITION_ONLY)}`;
  if (rnd.int(2) === 0) text += `, "${skewedWord(rnd)}" excluded`;
  return `${text}. Revision ${version}.`;
}
