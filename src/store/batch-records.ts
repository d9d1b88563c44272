/**
 * The answer of a batch read (NavigationStore.codesBatch) made from the
 * record texts of the ids asked, on either backend and on SQLite's batch
 * reader thread.
 */
import type { BatchRecords } from '../domain/navigation.ts';

/** jsonOf(i): the record text of ids[i], or null (or undefined) when there is none. */
export function batchRecords(ids: readonly string[], jsonOf: (index: number) => string | null | undefined): BatchRecords {
  const found: string[] = [];
  const missing: string[] = [];
  for (let i = 0; i < ids.length; i++) {
    const json = jsonOf(i);
    if (json === null || json === undefined) missing.push(ids[i]!);
    else found.push(json);
  }
  return { json: Buffer.from(found.join(',')), missing };
}
