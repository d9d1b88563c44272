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
import { MAX_ERRORS, readImportRows, type RowError } from './parse.ts';
import { ImportRejected, validateRequest, type ImportRequest } from './request.ts';
import { ImportStage } from './stage.ts';
import type { ImportOptions, ImportSummary } from './summary.ts';

export { ImportRejected, validateRequest, type ImportMode, type ImportRequest } from './request.ts';

export type { ImportOptions, ImportPhase, ImportProgress, ImportSummary } from './summary.ts';

export async function runImport(store: Store, req: ImportRequest, options: ImportOptions = {}): Promise<ImportSummary> {
  const started = performance.now();
  const progress = options.onProgress ?? (() => undefined);
  validateRequest(req);

  const stage = new ImportStage(req.system);
  try {
    const read = await readImportRows(
      req.file,
      req.format,
      (row) => stage.add(row),
      (read, total) => progress('read', read, total, stage.rows),
    );
    progress('sort', 0, stage.rows, 0);
    const twice = stage.finish();
    const errors = [...read.errors, ...twice.errors].sort((a, b) => a.line - b.line);
    if (errors.length > 0) throw rowsRejected(req.file, errors, read.more, twice.more);
    const summary = await store.withImport((tx) => applyStaged(tx, req, stage, options));
    // Timed here, not in the merge: the commit (the WAL's last pages, FTS5's last segments) and the wait for
    // running servers to see it are part of the import, ~10 % of a large snapshot's time.
    return { ...summary, durationMs: Math.round(performance.now() - started) };
  } catch (error) {
    if (error instanceof DamagedRecordError) {
      throw new ImportRejected(`${error.message}; nothing was imported. Restore the database from a backup taken before the record was damaged.`);
    }
    throw error;
  } finally {
    stage.close();
  }
}

/**
 * The refusal of a file with bad rows. When reading stopped at MAX_ERRORS, or
 * the list of codes found twice did (listCut), it gives the first MAX_ERRORS
 * in file order (a row may have added several, the stage codes found twice in
 * the rows read) and says that they are the first: their count alone was read
 * as the file's total.
 */
function rowsRejected(file: string, errors: RowError[], stopped: boolean, listCut: boolean): ImportRejected {
  if (!stopped && !listCut) return new ImportRejected(`${errors.length} problem(s) in ${file}; nothing was imported`, errors);
  const first = errors.slice(0, MAX_ERRORS);
  const why = stopped ? `reading stops at ${MAX_ERRORS}, so the rest of the file was not checked` : `the list stops at ${MAX_ERRORS}, so more may follow`;
  return new ImportRejected(`the first ${MAX_ERRORS} problems in ${file} (to line ${first.at(-1)!.line}): ${why}; nothing was imported`, first);
}
