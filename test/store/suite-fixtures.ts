/**
 * Builders and paging helpers shared by the parts of the store suite. They use
 * the Store interface only, so the suite runs unchanged on every backend.
 */
import assert from 'node:assert/strict';
import type { ChangeRecord, ChangeType, CodeRecord, CodeStatus } from '../../src/domain/records.ts';
import type { ChangeKey, ChangePageQuery, ChangeWrite, CodePageQuery, CodeWrite, Store } from '../../src/store/store.ts';

export interface OpenedStore {
  store: Store;
  dir: string;
  cleanup(): Promise<void>;
}

export type OpenStore = () => Promise<OpenedStore>;

/** Opens a fresh store for one test and always cleans it up. */
export async function withStore(open: OpenStore, fn: (store: Store) => Promise<void>): Promise<void> {
  const opened = await open();
  try {
    await fn(opened.store);
  } finally {
    await opened.cleanup();
  }
}

/** A code row as an import would write it: its JSON is a full code record. */
export function codeRow(id: string, status: CodeStatus = 'active', display = `Display of ${id}`): CodeWrite {
  const at = id.indexOf(':');
  const system = id.slice(0, at);
  const code = id.slice(at + 1);
  const record: CodeRecord = {
    object: 'code',
    id,
    system,
    code,
    display,
    definition: null,
    status,
    parents: [],
    attributes: { note: 'é "quoted", \\ back' },
    release: 'r1',
    effective_from: '2024-01-01',
    updated_at: '2024-01-01T00:00:00.000Z',
  };
  return { id, system, code, status, hash: `hash-${display}-${status}`, json: JSON.stringify(record), display, definition: null, root: true };
}

export function changeRow(id: number, codeId: string, effectiveDate: string, type: ChangeType = 'added'): ChangeWrite {
  const system = codeId.slice(0, codeId.indexOf(':'));
  const record: ChangeRecord = {
    object: 'change',
    id,
    code_id: codeId,
    type,
    effective_date: effectiveDate,
    release: 'r1',
    fields: [],
    before: null,
    after: { display: `Display of ${codeId}` },
    recorded_at: '2024-01-01T00:00:00.000Z',
  };
  return { id, codeId, system, type, effectiveDate, release: record.release, json: JSON.stringify(record) };
}

export async function writeCodes(store: Store, codes: CodeWrite[]): Promise<void> {
  await store.withImport((tx) => tx.writeCodes(codes));
}

export async function writeChanges(store: Store, changes: ChangeWrite[]): Promise<void> {
  await store.withImport((tx) => tx.writeChanges(changes));
}

/** UTF-8 byte order: the order codes are paged in. */
export function binaryOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

export function changeOrder(a: ChangeWrite, b: ChangeWrite): number {
  return a.effectiveDate < b.effectiveDate ? -1 : a.effectiveDate > b.effectiveDate ? 1 : a.id - b.id;
}

/** Checks one raw page against itself: count, last key and JSON agree. */
function pageRecords<T extends { id: string | number }>(page: { json: Buffer; count: number }, limit: number): T[] {
  const records = JSON.parse(`[${page.json.toString('utf8')}]`) as T[];
  assert.equal(page.count, records.length, 'count is the number of records in json');
  assert.ok(records.length <= limit, `a page holds at most limit (${limit}) records`);
  return records;
}

export type CodeFilters = Omit<CodePageQuery, 'after' | 'limit'>;
export const NO_CODE_FILTERS: CodeFilters = { system: null, status: null };

/** Pages through codes with the given filters; returns the ids in page order. */
export async function pageAllCodes(store: Store, filters: CodeFilters, limit: number, from: string | null = null): Promise<string[]> {
  const ids: string[] = [];
  let after = from;
  for (let pages = 0; ; pages++) {
    assert.ok(pages <= 10_000, 'paging must end');
    const page = await store.pageCodes({ ...filters, after, limit });
    const records = pageRecords<CodeRecord>(page, limit);
    ids.push(...records.map((r) => r.id));
    assert.equal(page.last, records.at(-1)?.id ?? null, 'last is the id of the last record');
    if (page.hasMore) assert.equal(page.count, limit, 'a page before the end is full');
    if (!page.hasMore) return ids;
    after = page.last;
  }
}

export type ChangeFilters = Omit<ChangePageQuery, 'after' | 'limit'>;
export const NO_CHANGE_FILTERS: ChangeFilters = { system: null, codeId: null, type: null, effectiveFrom: null, effectiveTo: null };

export interface ChangePages {
  /** `date#id` of every record, in page order. */
  keys: string[];
  /** Every page's JSON, joined by commas: the records exactly as stored. */
  json: string;
}

/** Pages through changes; `between` runs after each page but the last. */
export async function pageAllChanges(
  store: Store,
  filters: ChangeFilters,
  limit: number,
  between?: (pageNumber: number) => Promise<void>,
): Promise<ChangePages> {
  const keys: string[] = [];
  const json: string[] = [];
  let after: ChangeKey | null = null;
  for (let pages = 0; ; pages++) {
    assert.ok(pages <= 10_000, 'paging must end');
    const page = await store.pageChanges({ ...filters, after, limit });
    const records = pageRecords<ChangeRecord>(page, limit);
    keys.push(...records.map((r) => `${r.effective_date}#${r.id}`));
    if (page.count > 0) json.push(page.json.toString('utf8'));
    const lastRecord = records.at(-1);
    assert.deepEqual(page.last, lastRecord ? { effectiveDate: lastRecord.effective_date, id: lastRecord.id } : null);
    if (page.hasMore) assert.equal(page.count, limit, 'a page before the end is full');
    if (!page.hasMore) return { keys, json: json.join(',') };
    after = page.last;
    await between?.(pages);
  }
}

/** The changes a query must return, in order, computed from the written rows. */
export function expectedChanges(rows: ChangeWrite[], f: ChangeFilters): ChangePages {
  const selected = rows
    .filter(
      (c) =>
        (f.system === null || c.system === f.system) &&
        (f.codeId === null || c.codeId === f.codeId) &&
        (f.type === null || c.type === f.type) &&
        (f.effectiveFrom === null || c.effectiveDate >= f.effectiveFrom) &&
        (f.effectiveTo === null || c.effectiveDate <= f.effectiveTo),
    )
    .sort(changeOrder);
  return { keys: selected.map((c) => `${c.effectiveDate}#${c.id}`), json: selected.map((c) => c.json).join(',') };
}

/** Pages through with the given limit and checks the result against the written rows. */
export async function assertChangePaging(store: Store, rows: ChangeWrite[], filters: ChangeFilters, limit: number): Promise<void> {
  const got = await pageAllChanges(store, filters, limit);
  const want = expectedChanges(rows, filters);
  assert.deepEqual(got.keys, want.keys, `limit ${limit}, filters ${JSON.stringify(filters)}`);
  assert.equal(got.json, want.json, 'records come back exactly as written');
}
