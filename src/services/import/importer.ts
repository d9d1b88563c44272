/**
 * An import: parse and validate the file, then, inside the store's exclusive
 * import transaction, diff it against the current state and write the change
 * rows and the new code records. All of it commits or none of it does, and
 * importing the same file again records no change.
 */
import { isIsoDate, SYSTEM_PATTERN, codeId, type CodeContent, type CodeRecord, type ChangeRecord, type ChangeType } from '../../domain/records.ts';
import type { ChangeWrite, CodeWrite, Store, StoredCode } from '../../store/store.ts';
import { changedFields, changeTypeOf, compareBinary, contentHash, pick } from './diff.ts';
import { parseImportFile, type ImportFormat, type ImportRow, type RowError } from './parse.ts';

export type ImportMode = 'snapshot' | 'delta';

export interface ImportRequest {
  file: string;
  system: string;
  release: string;
  effectiveDate: string;
  format: ImportFormat;
  mode: ImportMode;
  /** Allow an effective date before the latest one already recorded. */
  allowBackdated?: boolean;
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

  return store.withImport(async (tx) => {
    // Taken once the lock is held, so recorded_at follows the order of change ids.
    const now = (options.now ?? (() => new Date()))().toISOString();
    const current = await tx.codeHashes(req.system);
    const rows = parsed.rows;
    const seen = new Set<string>();
    checkParents(rows, current, req.mode);
    // Stored records name parents by code_id; diff in the same terms.
    for (const row of rows) row.parents = row.parents.map((parent) => codeId(req.system, parent));

    const changed: ImportRow[] = [];
    const added: ImportRow[] = [];
    let unchanged = 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      seen.add(row.code);
      const existing = current.get(row.code);
      if (!existing) added.push(row);
      else if (existing.hash === contentHash(row)) unchanged++;
      else changed.push(row);
      if (i % 10_000 === 0) progress('diff', i, rows.length);
    }
    progress('diff', rows.length, rows.length);

    const missing: string[] = [];
    if (req.mode === 'snapshot') {
      for (const [code, state] of current) if (!seen.has(code) && state.status !== 'retired') missing.push(code);
    }

    const before = new Map<string, StoredCode>();
    for (const stored of await tx.codesById([...changed.map((r) => r.code), ...missing].map((c) => codeId(req.system, c)))) {
      before.set(stored.code, stored);
    }

    interface Pending {
      code: string;
      type: ChangeType;
      content: CodeContent;
      previous: StoredCode | null;
    }
    const pending: Pending[] = [
      ...added.map((row) => ({ code: row.code, type: 'added' as const, content: row, previous: null })),
      ...changed.map((row) => {
        const previous = before.get(row.code)!;
        return { code: row.code, type: changeTypeOf(previous, row), content: row, previous };
      }),
      ...missing.map((code) => {
        const previous = before.get(code)!;
        return { code, type: 'retired' as const, content: { ...previous, status: 'retired' as const }, previous };
      }),
    ];
    pending.sort((a, b) => compareBinary(a.code, b.code));

    if (pending.length > 0 && !req.allowBackdated) {
      const latest = await tx.latestEffectiveDate();
      if (latest !== null && req.effectiveDate < latest) {
        throw new ImportRejected(
          `--effective-date ${req.effectiveDate} is before the latest recorded change (${latest}): clients following the change feed past ${latest} would never see these ${pending.length} change(s). Pass --allow-backdated to record them anyway.`,
        );
      }
    }

    let nextId = await tx.nextChangeId();
    const firstChangeId = pending.length > 0 ? nextId : null;
    const changeWrites: ChangeWrite[] = [];
    const codeWrites: CodeWrite[] = [];
    const counts = { added: 0, revised: 0, retired: 0, reactivated: 0 };
    for (const p of pending) {
      const id = codeId(req.system, p.code);
      const fields = p.previous ? changedFields(p.previous, p.content) : [];
      const change: ChangeRecord = {
        object: 'change',
        id: nextId,
        code_id: id,
        type: p.type,
        effective_date: req.effectiveDate,
        release: req.release,
        fields,
        before: p.previous ? pick(p.previous, fields) : null,
        after: p.previous ? pick(p.content, fields) : pick(p.content, ['display', 'definition', 'status', 'parents', 'attributes']),
        recorded_at: now,
      };
      const record: CodeRecord = {
        object: 'code',
        id,
        system: req.system,
        code: p.code,
        display: p.content.display,
        definition: p.content.definition,
        status: p.content.status,
        parents: p.content.parents,
        attributes: p.content.attributes,
        release: req.release,
        effective_from: p.previous ? p.previous.effectiveFrom : req.effectiveDate,
        updated_at: now,
      };
      changeWrites.push({ id: nextId, codeId: id, system: req.system, type: p.type, effectiveDate: req.effectiveDate, json: JSON.stringify(change) });
      codeWrites.push({ id, system: req.system, code: p.code, status: record.status, hash: contentHash(p.content), json: JSON.stringify(record) });
      counts[p.type]++;
      nextId++;
    }

    // In chunks, so a long write shows progress; all of it is still one transaction.
    progress('write', 0, changeWrites.length);
    for (let start = 0; start < changeWrites.length; start += WRITE_CHUNK) {
      await tx.writeChanges(changeWrites.slice(start, start + WRITE_CHUNK));
      await tx.writeCodes(codeWrites.slice(start, start + WRITE_CHUNK));
      progress('write', Math.min(start + WRITE_CHUNK, changeWrites.length), changeWrites.length);
    }

    return {
      system: req.system,
      release: req.release,
      effectiveDate: req.effectiveDate,
      mode: req.mode,
      rows: rows.length,
      ...counts,
      unchanged,
      firstChangeId,
      lastChangeId: firstChangeId === null ? null : nextId - 1,
      durationMs: Math.round(performance.now() - started),
    };
  });
}

/** Every parent must be a code of the system once the import has applied. */
function checkParents(rows: ImportRow[], current: Map<string, unknown>, mode: ImportMode): void {
  const inFile = new Set(rows.map((r) => r.code));
  const errors: RowError[] = [];
  for (const row of rows) {
    for (const parent of row.parents) {
      const known = inFile.has(parent) || (mode === 'delta' && current.has(parent));
      if (!known) errors.push({ line: row.line, message: `parent ${parent} is not a code of this system` });
    }
  }
  if (errors.length > 0) throw new ImportRejected(`${errors.length} problem(s): unknown parents; nothing was imported`, errors);
}
