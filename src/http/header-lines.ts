/**
 * How many lines of a header field a request carried. Node keeps only the
 * first of some repeated fields (Authorization, Host) and joins others with
 * ", " (X-API-Key): only the raw lines tell that a field was sent twice.
 */
export function headerLines(rawHeaders: string[], name: string): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.length === name.length && rawHeaders[i]!.toLowerCase() === name) n++;
  return n;
}
