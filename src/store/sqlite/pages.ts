/**
 * The page queries of the hot path on SQLite: /v1/codes and /v1/changes.
 *
 * SQLite joins a page's records itself (group_concat over the keyset query)
 * and hands them over as one buffer of UTF-8 bytes, which is digested, kept in
 * the read cache and sent as it is. Fetched as one row each, 50 records became
 * 50 strings (each decoded from UTF-8), then one joined text, which the
 * response encoded back into UTF-8 twice (for its tag, and for the socket):
 * at 1 000 000 codes the query and the join took 0.7× the time as one buffer
 * (bench/HISTORY.md, "2026-12-06").
 *
 * The records arrive in key order: the inner query's ORDER BY and LIMIT make it
 * a subquery that SQLite runs before the aggregate and reads in that order (a
 * query with a LIMIT is never merged into an aggregate around it), and the arms
 * of a UNION ALL run one after the other. The paging property tests hold every
 * page's order and boundaries against a reference walk.
 */
import type { StatementSync } from 'node:sqlite';
import { jsonItems } from '../../domain/json-text.ts';
import type { ChangeKey, ChangePageQuery, CodePageQuery, RawPage } from '../../domain/pages.ts';
import type { ChangeRecord, CodeRecord } from '../../domain/records.ts';

type Params = Record<string, string | number>;
type Conditions = [string, string, string | null][];

/** The statements of one connection, by SQL, with rows as arrays; sameRead: in the snapshot of the statement just run (see SqliteStatements.arrays). */
export type Arrays = (sql: string, sameRead?: boolean) => StatementSync;

const NO_ITEMS = jsonItems<never>('');

/** The conditions that apply, and their parameters. */
function applying(conditions: Conditions, params: Params): string[] {
  const where: string[] = [];
  for (const [condition, name, value] of conditions) {
    if (value === null) continue;
    where.push(condition);
    params[name] = value;
  }
  return where;
}

function joined<T>(row: unknown[]): { json: RawPage<never, T>['json']; count: number } {
  const [items, count] = row as [Uint8Array | null, number];
  return { json: items === null ? NO_ITEMS : jsonItems<T>(items), count: Number(count) };
}

export function pageCodes(arrays: Arrays, q: CodePageQuery): RawPage<string, CodeRecord> {
  const params: Params = { after: q.after ?? '', limit: q.limit };
  const filters = applying(
    [
      ['system = $system', 'system', q.system],
      ['status = $status', 'status', q.status],
    ],
    params,
  );
  const where = ['id > $after', ...filters].join(' AND ');
  const row = arrays(
    `SELECT CAST(group_concat(json, ',') AS BLOB), count(*), max(id) FROM (SELECT id, json FROM codes WHERE ${where} ORDER BY id LIMIT $limit)`,
  ).get(params) as unknown as [Uint8Array | null, number, string | null];
  const page = joined<CodeRecord>(row);
  const last = row[2];
  if (last === null) return { ...page, last: null, hasMore: false };
  // Whether a record follows the last one: one probe of the index the page was read from.
  delete params.limit;
  params.after = last;
  const hasMore = arrays(`SELECT 1 FROM codes WHERE ${where} LIMIT 1`, true).get(params) !== undefined;
  return { ...page, last, hasMore };
}

/**
 * The keyset (effective_date, id) > (d, i) is split into two index ranges,
 * "same date, larger id" then "later date": a row-value or OR condition would
 * make SQLite scan every row of the cursor's date. An outer ORDER BY would
 * sort whole rows and double the cost of a page (140 → 295 µs for 200 rows).
 * The page's last key and whether another change follows are read from the
 * index alone, by the same walk one record further.
 */
export function pageChanges(arrays: Arrays, q: ChangePageQuery): RawPage<ChangeKey, ChangeRecord> {
  const params: Params = { limit: q.limit };
  const filters = applying(
    [
      ['code_id = $codeId', 'codeId', q.codeId],
      ['system = $system', 'system', q.system],
      ['type = $type', 'type', q.type],
      ['effective_date >= $from', 'from', q.effectiveFrom],
      ['effective_date <= $to', 'to', q.effectiveTo],
      ['release = $release', 'release', q.release ?? null],
    ],
    params,
  );
  const walk = (columns: string, limit: string): string => {
    const select = (extra: string[], order: string) => {
      const where = [...extra, ...filters];
      return `SELECT ${columns} FROM changes ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ${limit}`;
    };
    if (q.after === null) return select([], 'effective_date, id');
    return `SELECT * FROM (${select(['effective_date = $afterDate', 'id > $afterId'], 'id')})
      UNION ALL SELECT * FROM (${select(['effective_date > $afterDate'], 'effective_date, id')}) LIMIT ${limit}`;
  };
  if (q.after !== null) {
    params.afterDate = q.after.effectiveDate;
    params.afterId = q.after.id;
  }
  const page = joined<ChangeRecord>(
    arrays(`SELECT CAST(group_concat(json, ',') AS BLOB), count(*) FROM (${walk('json, effective_date, id', '$limit')})`).get(params) as unknown as unknown[],
  );
  if (page.count === 0) return { ...page, last: null, hasMore: false };
  // The last change of the page and the one after it, if any.
  params.lastAt = page.count - 1;
  // In the body's snapshot: the key the cursor will carry is the key of the body's last change.
  const bounds = arrays(`SELECT effective_date, id FROM (${walk('effective_date, id', '$limit + 1')}) LIMIT 2 OFFSET ($lastAt + 0)`, true).all(
    params,
  ) as unknown as [string, number][];
  const [lastDate, lastId] = bounds[0]!;
  return { ...page, last: { effectiveDate: lastDate, id: Number(lastId) }, hasMore: bounds.length > 1 };
}
