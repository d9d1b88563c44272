import { jsonItems } from '../../domain/json-text.ts';
import type { RawPage } from '../../domain/pages.ts';

/**
 * A page from rows fetched as arrays with limit+1 asked for, so the extra row
 * tells has_more; the records' JSON (column jsonAt) is joined as text, never
 * parsed. Both backends' page queries end here.
 */
export function toRawPage<T, R extends unknown[], K>(rows: R[], limit: number, jsonAt: number, key: (row: R) => K): RawPage<K, T> {
  const count = Math.min(rows.length, limit);
  let json = '';
  for (let i = 0; i < count; i++) json += (i === 0 ? '' : ',') + (rows[i]![jsonAt] as string);
  return { json: jsonItems<T>(json), count, last: count === 0 ? null : key(rows[count - 1]!), hasMore: rows.length > limit };
}
