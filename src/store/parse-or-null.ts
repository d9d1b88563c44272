/** A damaged record (its JSON does not parse) is left out of what migrations build: the importer reports it when its system is next imported. */
export function parseOrNull<T>(json: string): T | null {
  try {
    return JSON.parse(json) as T;
  } catch {
    return null;
  }
}
