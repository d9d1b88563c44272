/**
 * An import: stream the file through validation into a stage on disk (sorted
 * by code there), then, inside the store's exclusive import transaction,
 * check its parent graph, merge it with the stored codes read in code order a
 * page at a time, and write the change rows and the new code records in
 * batches. Memory stays bounded whatever the file's size. All of it commits
 * or none of it does, and importing the same file again records no change.
 */
import { DamagedRecordError } from '../../store/stored-code.ts';
import type { Store } from '../../store/store.ts';
import { applyStaged } from './merge.ts';
import { readImportRows } from './parse.ts';
import { ImportRejected, validateRequest, type ImportMode, type ImportRequest } from './request.ts';
import { ImportStage } from './stage.ts';

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

/** read: the file is parsed and staged; sort: staged rows sorted by code; check: the parent graph; write: the merge with the stored codes and its writes. */
export type ImportPhase = 'read' | 'sort' | 'check' | 'write';
/** done of total: bytes while reading, rows after; rows: rows so far (for a rate). */
export type ImportProgress = (phase: ImportPhase, done: number, total: number, rows?: number) => void;

export interface ImportOptions {
  onProgress?: ImportProgress;
  now?: () => Date;
}

export async function runImport(store: Store, req: ImportRequest, options: ImportOptions = {}): Promise<ImportSummary> {
  const started = performance.now();
  const progress = options.onProgress ?? (() => undefined);
  validateRequest(req);

  const stage = new ImportStage(req.system);
  try {
    const rowErrors = await readImportRows(
      req.file,
      req.format,
      (row) => stage.add(row),
      (read, total) => progress('read', read, total, stage.rows),
    );
    progress('sort', 0, stage.rows, 0);
    const errors = [...rowErrors, ...stage.finish()].sort((a, b) => a.line - b.line);
    if (errors.length > 0) throw new ImportRejected(`${errors.length} problem(s) in ${req.file}; nothing was imported`, errors);
    return await store.withImport((tx) => applyStaged(tx, req, stage, options, started));
  } catch (error) {
    if (error instanceof DamagedRecordError) {
      throw new ImportRejected(`${error.message}; nothing was imported. Restore the database from a backup taken before the record was damaged.`);
    }
    throw error;
  } finally {
    stage.close();
  }
}
