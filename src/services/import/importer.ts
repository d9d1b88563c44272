/**
 * An import: parse and validate the file, then, inside the store's exclusive
 * import transaction, diff it against the current state and write the change
 * rows and the new code records. All of it commits or none of it does, and
 * importing the same file again records no change.
 */
import {
  isIsoDate,
  SYSTEM_PATTERN,
  type ChangeRecord,
  type ChangeType,
  type CodeContent,
  type CodeRecord,
  type CodeStatus,
  type ContentField,
} from '../../domain/records.ts';
import { DamagedRecordError } from '../../store/stored-code.ts';
import type { ChangeWrite, CodeWrite, ImportTransaction, Store, StoredCode } from '../../store/store.ts';
import { changedFields, changeTypeOf, compareBinary, contentHash, pick } from './diff.ts';
import { checkParentGraph } from './hierarchy.ts';
import { parseImportFile, type ImportFormat, type ImportRow, type RowError } from './parse.ts';

export type ImportMode = 'snapshot' | 'delta';

export interface ImportRequest {
  file: string;
  system: string;
  release: string;
  effectiveDate: string;
  format: ImportFormat;
  mode: ImportMode;
  /** Allow an effective date before the latest one already recorded for the system. */
  allowBackdated?: boolean;
  /** Allow a snapshot to retire more than half of the system's codes not yet retired. */
  allowMassRetire?: boolean;
}

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

export class ImportRejected extends Error {
  readonly errors: RowError[];
  constructor(message: string, errors: RowError[] = []) {
    super(message);
    this.name = 'ImportRejected';
    this.errors = errors;
  }
}

export interface ImportOptions {
  onProgress?: ImportProgress;
  now?: () => Date;
}

const WRITE_CHUNK = 10_000;
const RELEASE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

export function validateRequest(req: ImportRequest): void {
  if (!SYSTEM_PATTERN.test(req.system)) {
    throw new ImportRejected(`--system "${req.system}" must match [a-z0-9][a-z0-9._-]{0,63}`);
  }
  if (!RELEASE_PATTERN.test(req.release)) {
    throw new ImportRejected(`--release "${req.release}" must be 1-64 characters of letters, digits and . _ : -`);
  }
  if (!isIsoDate(req.effectiveDate)) {
    throw new ImportRejected(`--effective-date "${req.effectiveDate}" must be a calendar date, YYYY-MM-DD`);
  }
}

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
  await checkParents(tx, rows, current, req);
  // Stored records name parents by code_id; diff in the same terms.
  for (const row of rows) row.parents = row.parents.map((parent) => prefix + parent);

  const seen = new Set<string>();
  const changed: { id: string; row: ImportRow }[] = [];
  const added: { id: string; row: ImportRow }[] = [];
  // Same content, but an id with U+FFFD may be the key of a code that had an
  // unpaired surrogate, whose JSON kept the escape: read, and rewritten if so.
  const suspect: { id: string; row: ImportRow }[] = [];
  let unchanged = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const id = prefix + row.code;
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

  const pending: Pending[] = [
    ...added.map(({ id, row }) => ({ id, code: row.code, type: 'added' as const, content: row as CodeContent, previous: null, fields: [] })),
    ...changed.map(({ id, row }) => {
      const previous = before.get(id)!;
      return { id, code: row.code, type: changeTypeOf(previous, row), content: row, previous, fields: changedFields(previous, row) };
    }),
    ...missing.map((id) => {
      const previous = before.get(id)!;
      const content = { ...previous, status: 'retired' as const };
      return { id, code: codeOfId(id, req.system), type: 'retired' as const, content, previous, fields: changedFields(previous, content) };
    }),
  ];
  pending.sort((a, b) => compareBinary(a.id, b.id));
  const changes = pending.filter((p) => p.previous === null || p.fields.length > 0);

  if (changes.length > 0 && !req.allowBackdated) {
    const latest = await tx.latestEffectiveDate(req.system);
    if (latest !== null && req.effectiveDate < latest) {
      throw new ImportRejected(
        `--effective-date ${req.effectiveDate} is before the latest change of system ${req.system} (${latest}): clients following its changes past ${latest} would never see these ${changes.length} change(s). Pass --allow-backdated to record them anyway.`,
      );
    }
  }
  if (req.mode === 'snapshot' && !req.allowMassRetire) refuseMassRetirement(req.system, changes, current);
  const feedLatest = changes.length > 0 ? await tx.latestEffectiveDate(null) : null;

  let nextId = await tx.nextChangeId();
  const firstChangeId = changes.length > 0 ? nextId : null;
  const changeWrites: ChangeWrite[] = [];
  const codeWrites: CodeWrite[] = [];
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
    codeWrites.push({ id: p.id, system: req.system, code: p.code, status: record.status, hash: contentHash(p.content), json: JSON.stringify(record) });
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

/** The code of a stored row's id; a row filed under the system must have an id that says so. */
function codeOfId(id: string, system: string): string {
  if (!id.startsWith(`${system}:`)) throw new DamagedRecordError(id, `it is filed under system ${system}, but its id does not start with "${system}:"`);
  return id.slice(system.length + 1);
}

/** The stored state of each id, every one of them: a code listed by codeHashes must be readable. */
async function readStored(tx: ImportTransaction, ids: string[]): Promise<Map<string, StoredCode>> {
  const found = new Map<string, StoredCode>();
  for (const stored of await tx.codesById(ids)) found.set(stored.id, stored);
  for (const id of ids) if (!found.has(id)) throw new DamagedRecordError(id, 'it is listed for its system but its record cannot be read back');
  return found;
}

/**
 * A snapshot retires what it leaves out, so a truncated or wrong file would
 * retire most of a system. More than half of the codes still in use is
 * taken as that, unless the operator says it is meant.
 */
function refuseMassRetirement(system: string, changes: Pending[], current: Map<string, { status: CodeStatus }>): void {
  const retiring = changes.filter((p) => p.type === 'retired').length;
  if (retiring === 0) return;
  let inUse = 0;
  for (const state of current.values()) if (state.status !== 'retired') inUse++;
  if (retiring * 2 > inUse) {
    throw new ImportRejected(
      `this snapshot would retire ${retiring} of the ${inUse} codes of system ${system} not yet retired (more than half): is the file complete? Pass --allow-mass-retire to retire them anyway.`,
    );
  }
}

/** Every parent a code of the system once the import applies, and no code its own ancestor. */
async function checkParents(tx: ImportTransaction, rows: ImportRow[], current: Map<string, unknown>, req: ImportRequest): Promise<void> {
  const prefix = `${req.system}:`;
  const errors = await checkParentGraph({
    rows,
    // A snapshot is the whole system: its parents must be in the file.
    isStored: (code) => req.mode === 'delta' && current.has(prefix + code),
    async storedAncestors(codes) {
      const stored = await tx.codesById(codes.map((code) => prefix + code));
      return stored.map((s) => ({
        code: codeOfId(s.id, req.system),
        parents: s.parents.filter((parent) => parent.startsWith(prefix)).map((parent) => parent.slice(prefix.length)),
      }));
    },
  });
  if (errors.length > 0) {
    throw new ImportRejected(`${errors.length} problem(s) with parents in ${req.file}; nothing was imported`, errors);
  }
}
