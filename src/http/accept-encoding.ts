/**
 * Content-coding negotiation (RFC 9110 §12.5.3): which coding, if any, a
 * response is sent in, from the request's Accept-Encoding.
 */

/** The codings the service sends, preferred first when the client weighs them equally. */
export type ContentCoding = 'br' | 'gzip';

const CODINGS: readonly ContentCoding[] = ['br', 'gzip'];

/** A weight with at most three decimals, 0 to 1 (RFC 9110 §12.4.2). */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The weights an Accept-Encoding field gives, by lower-cased coding; malformed members are ignored. */
export function parseAcceptEncoding(field: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const member of field.split(',')) {
    const [rawName, ...params] = member.split(';');
    const name = rawName!.trim().toLowerCase();
    if (name === '') continue;
    let q = 1;
    let valid = true;
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq === -1 || param.slice(0, eq).trim().toLowerCase() !== 'q') continue;
      const value = param.slice(eq + 1).trim();
      if (!QVALUE.test(value)) valid = false;
      else q = Number(value);
    }
    if (!valid) continue;
    // x-gzip is gzip (RFC 9110 §8.4.1.3).
    const coding = name === 'x-gzip' ? 'gzip' : name;
    // The same coding listed twice: the first says it (as most servers read it).
    if (!weights.has(coding)) weights.set(coding, q);
  }
  return weights;
}

/**
 * The coding to send, or null for none (identity). No header: none, as
 * clients that can decode say so. The highest weight wins; on a tie a coding
 * wins over identity and br over gzip. Identity is acceptable unless
 * "identity;q=0", or "*;q=0" without an identity member, excludes it; it is
 * then the least preferred. When nothing is acceptable, identity is sent
 * anyway (RFC 9110 §12.5.3: better than a 406 for a GET).
 */
export function chooseCoding(field: string | string[] | undefined): ContentCoding | null {
  if (field === undefined) return null;
  const weights = parseAcceptEncoding(Array.isArray(field) ? field.join(',') : field);
  const star = weights.get('*');
  const identity = weights.get('identity') ?? star ?? 0.0001;
  let best: ContentCoding | null = null;
  let bestQ = 0;
  for (const coding of CODINGS) {
    const q = weights.get(coding) ?? star ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best !== null && bestQ >= identity ? best : null;
}
