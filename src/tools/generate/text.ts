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

/** 20 to 60 characters of words, ending in a qualifier that rotates with the version. */
export function displayText(seed: number, system: number, index: number, version: number): string {
  const rnd = new Random(hash(seed, system, index, 1, version));
  const target = 20 + rnd.int(41);
  const qualifier = QUALIFIERS[(hash(seed, system, index, 2) + version) % QUALIFIERS.length]!;
  let text = capitalise(rnd.pick(WORDS));
  // Leave room for ", " + qualifier; a comma now and then exercises CSV quoting.
  while (text.length + 1 + rnd.pick(WORDS).length + 2 + qualifier.length <= target) text += ` ${rnd.pick(WORDS)}`;
  text += `${rnd.int(3) === 0 ? ',' : ''} ${qualifier}`;
  return text.length > 60 ? text.slice(0, 60).trimEnd() : text;
}

/** One or two sentences; null for one code in ten until its first revision. */
export function definitionText(seed: number, system: number, index: number, version: number): string | null {
  if (version === 0 && hash(seed, system, index, 3) % 10 === 0) return null;
  const rnd = new Random(hash(seed, system, index, 4, version));
  let text = `${rnd.pick(SENTENCES)}.`;
  if (rnd.int(2) === 0) text += ` ${capitalise(rnd.pick(WORDS))} ${rnd.pick(WORDS)} "${rnd.pick(WORDS)}" excluded.`;
  return `${text} Revision ${version}.`;
}
