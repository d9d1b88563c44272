/**
 * Key-shaped texts wherever they turn up (a query string, a body field, a
 * Referer), however they were percent-encoded: to find leaked keys and to keep
 * them out of what is written down.
 */
const KEY_SHAPE = /svc_(?:live|test)_[A-Za-z0-9]{32}/g;
/**
 * "svc_" with each character as itself or percent-encoded: every text that holds a
 * key-shaped text, as it is or decoded, holds this. One test of it is all that nearly
 * every text (a code id with an encoded ":", a cursor) costs.
 */
const KEY_START = /(?:s|%73)(?:v|%76)(?:c|%63)(?:_|%5[Ff])/;

/**
 * Decodes each %XX on its own, byte by byte (one broken escape, %ZZ or a lone %, must
 * not hide the others), and '+' as a space. Keys are ASCII, so bytes read as Latin-1
 * are enough to find them.
 */
export function percentDecoded(text: string): string {
  return text.replaceAll('+', ' ').replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** False when the text cannot hold a key-shaped text, as it is or percent-decoded: one regular-expression test. */
export function mayHoldKeyShape(text: string): boolean {
  return KEY_START.test(text);
}

/** Every key-shaped text in the text, as it is and percent-decoded. */
export function keyShapedTexts(text: string): string[] {
  if (!mayHoldKeyShape(text)) return [];
  const found = new Set<string>();
  for (const candidate of [text, percentDecoded(text)]) for (const m of candidate.matchAll(KEY_SHAPE)) found.add(m[0]);
  return [...found];
}

export function holdsKeyShape(text: string): boolean {
  return keyShapedTexts(text).length > 0;
}

/** Every key-shaped text among the string values of a parsed body (objects and arrays, at any depth). */
export function keyShapedValues(value: unknown, depth = 0): string[] {
  if (typeof value === 'string') return keyShapedTexts(value);
  if (depth > 32 || value === null || typeof value !== 'object') return [];
  const out: string[] = [];
  for (const v of Array.isArray(value) ? value : Object.values(value)) out.push(...keyShapedValues(v, depth + 1));
  return out;
}
