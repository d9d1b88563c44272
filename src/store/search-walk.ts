/**
 * The order of a search, shared by every backend: four groups, each an index
 * range read in a fixed order of the record, so a page deep in the results
 * costs what the first one costs.
 *
 *   1. the folded code equals the folded query             by id
 *   2. the folded code starts with it (and is longer)       by folded code, id
 *   3. the folded display starts with it (not in 1–2)       by folded display, id
 *   4. every query word starts a word of the code, display
 *      or definition (not in 1–3)                           by the record's search sequence
 *
 * The search sequence is a number the record gets when it is first indexed and
 * keeps for ever (imports number new codes in id order). Groups 3 and 4 need at
 * least one query word: a query of punctuation only matches code prefixes.
 */
import { jsonItems } from '../domain/json-text.ts';
import type { CodeRecord, CodeStatus } from '../domain/records.ts';
import { distinctWords, foldedOtherwiseBefore, foldText } from '../domain/search-text.ts';
import type { RawPage } from '../domain/pages.ts';
import type { CodeSearchQuery, SearchGroup, SearchKey } from '../domain/search.ts';

export type { CodeSearchQuery, SearchGroup, SearchKey } from '../domain/search.ts';

/**
 * The limits a backend's group 4 works with (defaults in each backend's
 * search.ts); tests make them small so that every path of the walk runs on a
 * few hundred records.
 */
export interface SearchTuning {
  /** PostgreSQL: records of the sequence tested one by one before the GIN index takes over. */
  walk?: number;
  /** SQLite: most terms a long query word is expanded into before FTS5's own prefix query. */
  expandTerms?: number;
  /** SQLite: most records the longer words of a query may match for its one-character words to be tested on them (search-broad-words.ts). */
  smallSet?: number;
}

/** One group's rows after a position (null: from the group's start): [sort key, record JSON]. */
export type GroupReader = (group: SearchGroup, after: SearchKey | null, limit: number) => Promise<[SearchKey, string][]>;

/**
 * Reads limit+1 rows from the cursor's group on, moving to the next group when
 * one runs out, and joins the records' JSON.
 */
export async function walkSearch(q: CodeSearchQuery, read: GroupReader): Promise<RawPage<SearchKey, CodeRecord>> {
  const rows: [SearchKey, string][] = [];
  if (q.terms.folded === '') return { json: jsonItems<CodeRecord>(''), count: 0, last: null, hasMore: false };
  const lastGroup: SearchGroup = q.terms.words.length > 0 ? 4 : 2;
  for (let group = q.after?.group ?? 1; group <= lastGroup && rows.length <= q.limit; group++) {
    const after = q.after !== null && q.after.group === group ? q.after : null;
    rows.push(...(await read(group, after, q.limit + 1 - rows.length)));
  }
  const count = Math.min(rows.length, q.limit);
  let json = '';
  for (let i = 0; i < count; i++) json += (i === 0 ? '' : ',') + rows[i]![1];
  return { json: jsonItems<CodeRecord>(json), count, last: count === 0 ? null : rows[count - 1]![0], hasMore: rows.length > q.limit };
}

/** What the search index holds of one record: its texts folded once. */
export interface SearchRow {
  id: string;
  system: string;
  status: CodeStatus;
  foldedCode: string;
  foldedDisplay: string;
  /** '' when the record has no definition. */
  foldedDefinition: string;
}

export function searchRowOf(c: { id: string; system: string; code: string; status: CodeStatus; display: string; definition: string | null }): SearchRow {
  return {
    id: c.id,
    system: c.system,
    status: c.status,
    foldedCode: foldText(c.code),
    foldedDisplay: foldText(c.display),
    foldedDefinition: foldText(c.definition ?? ''),
  };
}

/** The folded texts whose words are the record's words: code, display, definition. */
export function searchTexts(row: SearchRow): [string, string, string] {
  return [row.foldedCode, row.foldedDisplay, row.foldedDefinition];
}

/** The distinct words of the record's code, display and definition, space-separated. */
export function searchWords(row: SearchRow): string {
  return distinctWords(searchTexts(row)).join(' ');
}

/** A code as stored: its columns and its record's JSON. */
export interface StoredSearchSource {
  id: string;
  system: string;
  code: string;
  status: CodeStatus;
  json: string;
}

function storedTexts(r: StoredSearchSource): { display: string; definition: string | null } {
  const record = JSON.parse(r.json) as { display?: unknown; definition?: unknown };
  return {
    display: typeof record.display === 'string' ? record.display : '',
    definition: typeof record.definition === 'string' ? record.definition : null,
  };
}

/** The search row of a stored code (the migrations that build or rebuild the index). */
export function storedSearchRow(r: StoredSearchSource): SearchRow {
  return searchRowOf({ ...r, ...storedTexts(r) });
}

/**
 * The search row of a stored code whose folding changed in SQLite schema 13
 * (PostgreSQL 8), or null: its code or its record JSON is tried first, so
 * that most records are passed over without being parsed.
 */
export function refoldedSearchRow(r: StoredSearchSource): SearchRow | null {
  if (!foldedOtherwiseBefore(r.code) && !foldedOtherwiseBefore(r.json)) return null;
  const { display, definition } = storedTexts(r);
  if (![r.code, display, definition ?? ''].some(foldedOtherwiseBefore)) return null;
  return searchRowOf({ ...r, display, definition });
}
