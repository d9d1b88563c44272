import type { RawPage } from './store.ts';

/**
 * Rows come back as arrays (no per-row objects) with limit+1 fetched, so the
 * extra row tells has_more; the records' JSON is joined as text.
 */
export function toRawPage<R extends unknown[], K>(rows: R[], limit: number, jsonAt: number, key: (row: R) => K): RawPage<K> {
  const count = Math.min(rows.length, limit);
  let json = '';
  for (let i = 0; i < count; i++) json += (i === 0 ? '' : ',') + (rows[i]![jsonAt] as string);
  return { json, count, last: count === 0 ? null : key(rows[count - 1]!), hasMore: rows.length > limit };
}
