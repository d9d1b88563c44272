/**
 * An import: parse and validate the file, then, inside the store's exclusive
 * import transaction, diff it against the current state and write the change
 * rows and the new code records. All of it commits or none of it does, and
 * importing the same file again records no change.
 */
import type { ChangeRecord, ChangeType, CodeContent, CodeRecord, ContentField } from '../../domain/records.ts';
import { codeOfStoredId, DamagedRecordError } from '../../store/stored-code.ts';
import type { ChangeWrite, CodeWrite, ImportTransaction, Store, StoredCode } from '../../store/store.ts';
import { changedFields, changeTypeOf, compareBinary, contentHash, pick } from './diff.ts';
import { refuseBackdating, refuseBadParents, refuseMassRetirement, refuseReusedRelease } from './guards.ts';
import type { CodeCounts } from '../../store/systems-store.ts';
import { parseImportFile, type ImportRow } from './parse.ts';
import { writeHierarchy, writeVersions } from './navigation.ts';
import { ImportRejected, validateRequest, type ImportMode, type ImportRequest } from './request.ts';

export { ImportRejected, validateRequest, type ImportMode, type ImportRequest } from './request.ts';

export interface ImportSummary {
  system: string;
  release: string;
  effectiveDate: string;
  mode: ImportMode;
  rows: number;
  added: number;
  revised: number;
  retired: number;
  reactivated: number;
  unchanged: number;
  /** Stored records rewritten whole with no change recorded: their row disagreed with their content. */
  repaired: number;
  /**
   * The latest effective date of the whole change feed when this import's
   * changes are dated before it (another system is further on), else null:
   * a reader following GET /v1/changes without a system filter past that
   * date will not see them.
   */
  unfilteredFeedAt: string | null;
  /** Ids of the first and last change written, or null when none. */
  firstChangeId: number | null;
  lastChangeId: number | null;
  durationMs: number;
}

export type ImportPhase = 'read' | 'diff' | 'write';
export type ImportProgress = (phase: ImportPhase, done: number, total: number) => void;

export interface ImportOptions {
  onProgress?: ImportProgress;
  now?: () => Date;
}

const WRITE_CHUNK = 10_000;

export async function runImport(store: Store, req: ImportRequest, options: ImportOptions = {}): Promise<ImportSummary> {
  const started = performance.now();
  const progress = options.onProgress ?? (() => undefined);
  validateRequest(req);

  const parsed = await parseImportFile(req.file, req.format, (read, total) => progress('read', read, total));
  if (parsed.errors.length > 0) {
    throw new ImportRejected(`${parsed.errors.length} problem(s) in ${req.file}; nothing was imported`, parsed.errors);
  }

  try {
    return await store.withImport((tx) => applyImport(tx, req, parsed.rows, options, started));
  } catch (error) {
    if (error instanceof DamagedRecordError) {
      throw new ImportRejected(`${error.message}; nothing was imported. Restore the database from a backup taken before the record was damaged.`);
    }
    throw error;
  }
}

/** A code the import writes: a change to record, or only a stored record to repair. */
interface Pending {
  id: string;
  code: string;
  type: ChangeType;
  content: CodeContent;
  previous: StoredCode | null;
  /** Empty for an added code; for a code whose content is as stored, the write only repairs its row. */
  fields: ContentField[];
}

async function applyImport(tx: ImportTransaction, req: ImportRequest, rows: ImportRow[], options: ImportOptions, started: number): Promise<ImportSummary> {
  const progress = options.onProgress ?? (() => undefined);
  // Taken once the lock is held, so recorded_at follows the order of change ids.
  const now = (options.now ?? (() => new Date()))().toISOString();
  const prefix = `${req.system}:`;
  // Keyed by the rows' own key, the id every write goes to: whatever else a
  // stored row says (an id stored with U+FFFD where its JSON has an escape),
  // a code of the file and its stored row meet here or not at all.
  const current = await tx.codeHashes(req.system);
  // Stored records name parents by code_id; diff in the same terms.
  for (const row of rows) row.parents = row.parents.map((parent) => prefix + parent);

  const seen = new Set<string>();
  const ids: string[] = new Array<string>(rows.length);
  const changed: { id: string; row: ImportRow }[] = [];
  const added: { id: string; row: ImportRow }[] = [];
  // Same content, but an id with U+FFFD may be the key of a code that had an
  // unpaired surrogate, whose JSON kept the escape: read, and rewritten if so.
  const suspect: { id: string; row: ImportRow }[] = [];
  let unchanged = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const id = prefix + row.code;
    ids[i] = id;
    seen.add(id);
    const existing = current.get(id);
    if (!existing) added.push({ id, row });
    else if (existing.hash !== contentHash(row)) changed.push({ id, row });
    else if (id.includes('\uFFFD')) suspect.push({ id, row });
    else unchanged++;
    if (i % 10_000 === 0) progress('diff', i, rows.length);
  }
  progress('diff', rows.length, rows.length);

  const missing: string[] = [];
  if (req.mode === 'snapshot') {
    for (const [id, state] of current) if (!seen.has(id) && state.status !== 'retired') missing.push(id);
  }
  const before = await readStored(tx, [...changed.map((c) => c.id), ...suspect.map((c) => c.id), ...missing]);
  for (const s of suspect) {
    if (before.get(s.id)!.wellFormed) unchanged++;
    else changed.push(s);
  }
  // A row adds edges to the hierarchy when it is new, or changed with parents other than stored.
  const hasNewParents = (i: number) => {
    const previous = before.get(ids[i]!);
    if (previous === undefined) return !current.has(ids[i]!);
    const parents = rows[i]!.parents;
    return previous.parents.length !== parents.length || previous.parents.some((parent, k) => parent !== parents[k]);
  };
  await refuseBadParents(tx, req, rows, ids, current, hasNewParents);

  const pending: Pending[] = [
    ...added.map(({ id, row }) => ({ id, code: row.code, type: 'added' as const, content: row, previous: null, fields: [] })),
    ...changed.map(({ id, row }) => {
      const previous = before.get(id)!;
      return { id, code: row.code, type: changeTypeOf(previous, row), content: row, previous, fields: changedFields(previous, row) };
    }),
    ...missing.map((id) => {
      const previous = before.get(id)!;
      const content = { ...previous, status: 'retired' as const };
      return { id, code: codeOfStoredId(id, req.system), type: 'retired' as const, content, previous, fields: changedFields(previous, content) };
    }),
  ];
  pending.sort((a, b) => compareBinary(a.id, b.id));
  const changes = pending.filter((p) => p.previous === null || p.fields.length > 0);

  await refuseBackdating(tx, req, changes.length);
  refuseMassRetirement(req, changes, current);
  const releaseKnown = await tx.releaseExists(req.system, req.release);
  refuseReusedRelease(req, releaseKnown, changes.length);
  const feedLatest = changes.length > 0 ? await tx.latestEffectiveDate(null) : null;
  const systemLatest = changes.length > 0 ? await tx.latestEffectiveDate(req.system) : null;

  let nextId = await tx.nextChangeId();
  const firstChangeId = changes.length > 0 ? nextId : null;
  const changeWrites: ChangeWrite[] = [];
  const codeWrites: CodeWrite[] = [];
  const recorded: ChangeRecord[] = [];
  const records = new Map<string, string>();
  const counts = { added: 0, revised: 0, retired: 0, reactivated: 0, repaired: 0 };
  for (const p of pending) {
    const repair = p.previous !== null && p.fields.length === 0;
    const record: CodeRecord = {
      object: 'code',
      id: p.id,
      system: req.system,
      code: p.code,
      display: p.content.display,
      definition: p.content.definition,
      status: p.content.status,
      parents: p.content.parents,
      attributes: p.content.attributes,
      // A repair records no change: the record keeps the release that last changed it.
      release: repair ? p.previous!.release : req.release,
      effective_from: p.previous ? p.previous.effectiveFrom : req.effectiveDate,
      updated_at: now,
    };
    codeWrites.push({
      id: p.id,
      system: req.system,
      code: p.code,
      status: record.status,
      hash: contentHash(p.content),
      json: JSON.stringify(record),
      display: record.display,
      definition: record.definition,
    });
    if (repair) {
      counts.repaired++;
      continue;
    }
    const change: ChangeRecord = {
      object: 'change',
      id: nextId,
      code_id: p.id,
      type: p.type,
      effective_date: req.effectiveDate,
      release: req.release,
      fields: p.fields,
      before: p.previous ? pick(p.previous, p.fields) : null,
      after: p.previous ? pick(p.content, p.fields) : pick(p.content, ['display', 'definition', 'status', 'parents', 'attributes']),
      recorded_at: now,
    };
    changeWrites.push({ id: nextId, codeId: p.id, system: req.system, type: p.type, effectiveDate: req.effectiveDate, json: JSON.stringify(change) });
    recorded.push(change);
    records.set(p.id, codeWrites.at(-1)!.json);
    counts[p.type]++;
    nextId++;
  }

  // In chunks, so a long write shows progress; all of it is still one transaction.
  progress('write', 0, codeWrites.length);
  for (let start = 0; start < codeWrites.length; start += WRITE_CHUNK) {
    await tx.writeChanges(changeWrites.slice(start, start + WRITE_CHUNK));
    await tx.writeCodes(codeWrites.slice(start, start + WRITE_CHUNK));
    progress('write', Math.min(start + WRITE_CHUNK, codeWrites.length), codeWrites.length);
  }
  await writeVersions(tx, recorded, records, systemLatest !== null && req.effectiveDate < systemLatest);
  await writeHierarchy(
    tx,
    req.system,
    changes.map((p) => ({ id: p.id, content: p.content, fields: p.previous === null ? null : p.fields })),
    current.size + added.length,
  );

  if (!releaseKnown) {
    await tx.recordRelease({
      system: req.system,
      id: req.release,
      effectiveDate: req.effectiveDate,
      mode: req.mode,
      importedAt: now,
      counts: { added: counts.added, revised: counts.revised, retired: counts.retired, reactivated: counts.reactivated },
      firstChangeId,
      lastChangeId: firstChangeId === null ? null : nextId - 1,
      codeCounts: codeCountsAfter(current, pending),
    });
  }

  return {
    system: req.system,
    release: req.release,
    effectiveDate: req.effectiveDate,
    mode: req.mode,
    rows: rows.length,
    ...counts,
    unchanged,
    unfilteredFeedAt: feedLatest !== null && req.effectiveDate < feedLatest ? feedLatest : null,
    firstChangeId,
    lastChangeId: firstChangeId === null ? null : nextId - 1,
    durationMs: Math.round(performance.now() - started),
  };
}

/** The stored state of each id, every one of them: a code listed by codeHashes must be readable. */
async function readStored(tx: ImportTransaction, ids: string[]): Promise<Map<string, StoredCode>> {
  const found = new Map<string, StoredCode>();
  for (const stored of await tx.codesById(ids)) found.set(stored.id, stored);
  for (const id of ids) if (!found.has(id)) throw new DamagedRecordError(id, 'it is listed for its system but its record cannot be read back');
  return found;
}

/** The system's codes by status once the import applies. */
function codeCountsAfter(current: Map<string, { status: CodeContent['status'] }>, pending: Pending[]): CodeCounts {
  const statusOf = new Map<string, CodeContent['status']>();
  for (const [id, state] of current) statusOf.set(id, state.status);
  for (const p of pending) statusOf.set(p.id, p.content.status);
  const counts: CodeCounts = { active: 0, deprecated: 0, retired: 0 };
  for (const status of statusOf.values()) counts[status]++;
  return counts;
}
