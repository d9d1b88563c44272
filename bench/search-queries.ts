/**
 * The query classes of the search benchmark (issue 13), drawn from the data
 * set's own codes and the generator's vocabulary with a seeded source: the
 * same queries on every run. Each class is a list of `q` values.
 */
import { DEFINITION_ONLY, skewedWord, VOCABULARY, displayText } from '../src/tools/generate/text.ts';
import { SYSTEMS, type GenerateManifest } from '../src/tools/generate/data-set.ts';
import { Random } from '../src/tools/generate/random.ts';

export const SEARCH_CLASSES = [
  'exact code',
  'code prefix',
  'one letter',
  'two or three letters',
  'one whole word',
  'two words',
  'definition-only word',
  'no match',
] as const;
export type SearchClass = (typeof SEARCH_CLASSES)[number];

/** Short ids for the scenario table. */
export const CLASS_IDS: Record<SearchClass, string> = {
  'exact code': 'S1',
  'code prefix': 'S2',
  'one letter': 'S3',
  'two or three letters': 'S4',
  'one whole word': 'S5',
  'two words': 'S6',
  'definition-only word': 'S7',
  'no match': 'S8',
};

/** A code of the data set at random: its system's index and its code text. */
function someCode(manifest: GenerateManifest, rnd: Random): { s: number; index: number; code: string } {
  let i = rnd.int(manifest.codes);
  for (const [s, x] of manifest.systems.entries()) {
    if (i < x.codes) return { s, index: i, code: SYSTEMS.find((spec) => spec.name === x.system)!.code(i) };
    i -= x.codes;
  }
  throw new Error('no code');
}

/** count queries of each class. */
export function searchQueries(manifest: GenerateManifest, count: number, seed = 13): Record<SearchClass, string[]> {
  const rnd = new Random(seed);
  const make = (f: () => string) => Array.from({ length: count }, f);
  const letters = 'abcdefghiklmnoprstuvz';
  return {
    'exact code': make(() => someCode(manifest, rnd).code.toLowerCase()),
    'code prefix': make(() => {
      const code = someCode(manifest, rnd).code;
      return code.slice(0, Math.min(code.length - 1, 3 + rnd.int(2)));
    }),
    'one letter': make(() => letters[rnd.int(letters.length)]!),
    'two or three letters': make(() => skewedWord(rnd).slice(0, 2 + rnd.int(2))),
    'one whole word': make(() => VOCABULARY[rnd.int(VOCABULARY.length)]!),
    'two words': make(() => {
      // Two words of a display, as typed: the second one often cut short.
      const { s, index } = someCode(manifest, rnd);
      const words = displayText(manifest.seed, s, index, 0).split(/[ ,]+/);
      const at = rnd.int(Math.max(1, words.length - 2));
      const second = words[at + 1] ?? words[0]!;
      return `${words[at]!} ${second.slice(0, Math.max(2, second.length - rnd.int(3)))}`.toLowerCase();
    }),
    'definition-only word': make(() => DEFINITION_ONLY[rnd.int(DEFINITION_ONLY.length)]!),
    'no match': make(() => `zq${VOCABULARY[rnd.int(VOCABULARY.length)]!}`),
  };
}
