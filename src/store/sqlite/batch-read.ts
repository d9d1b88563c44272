/**
 * The batch lookup's one statement, shared by the main connection and the
 * batch reader's thread (batch-reader.ts).
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { BatchRecords } from '../../domain/navigation.ts';
import { batchRecords } from '../batch-records.ts';
import { prepareArrays } from './statements.ts';

/** The latest version on or before the date; versions of one date are ordered by change id. */
export const AS_OF_ONE = 'SELECT json FROM code_versions WHERE code_id = ? AND valid_from <= ? ORDER BY valid_from DESC, change_id DESC LIMIT 1';

// json_each drives the join (CROSS JOIN keeps it outside): one key lookup per id, no list built and probed.
const NOW_SQL = 'SELECT j.key, c.json FROM json_each(?) j CROSS JOIN codes c ON c.id = j.value';
const AS_OF_SQL = `SELECT j.key, (${AS_OF_ONE.replace('code_id = ?', 'code_id = j.value')}) FROM json_each(?) j`;

/** Prepares the two statements once per connection; a point query each would cost ~10 µs of statement overhead per id. */
export function batchReader(db: DatabaseSync): (ids: readonly string[], asOf: string | null) => BatchRecords {
  let now: StatementSync | undefined;
  let asOfStatement: StatementSync | undefined;
  return (ids, asOf) => {
    const list = JSON.stringify(ids);
    const rows = (asOf === null
      ? (now ??= prepareArrays(db, NOW_SQL)).all(list)
      : (asOfStatement ??= prepareArrays(db, AS_OF_SQL)).all(asOf, list)) as unknown as [number, string | null][];
    const jsons = new Array<string | null>(ids.length).fill(null);
    for (const [at, json] of rows) jsons[at] = json;
    return batchRecords(ids, (i) => jsons[i]);
  };
}
