/**
 * What an import may not do to a system, whatever its rows say: break the
 * hierarchy, go back behind the system's latest change, or retire most of
 * the system at once. Each is refused with one message that says what to do.
 */
import type { ChangeType, CodeStatus } from '../../domain/records.ts';
import { codeOfStoredId } from '../../store/stored-code.ts';
import type { ImportTransaction } from '../../store/store.ts';
import { checkParentGraph } from './hierarchy.ts';
import type { ImportRow } from './parse.ts';
import { ImportRejected, type ImportRequest } from './request.ts';

/**
 * Every parent a code of the system once the import applies, and no code its
 * own ancestor. Rows name parents by id; `ids` are the rows' ids. A cycle is
 * looked for from the rows for which `hasNewParents` says so: one new to the
 * system has at least one edge the stored hierarchy does not have.
 */
export async function refuseBadParents(
  tx: ImportTransaction,
  req: ImportRequest,
  rows: ImportRow[],
  ids: string[],
  current: Map<string, unknown>,
  hasNewParents: (row: number) => boolean,
): Promise<void> {
  const errors = await checkParentGraph({
    rows,
    ids,
    // A snapshot is the whole system: its parents must be in the file, and every row is searched.
    mayCloseCycle: (row) => req.mode === 'snapshot' || hasNewParents(row),
    isStored: (id) => req.mode === 'delta' && current.has(id),
    async storedAncestors(wanted) {
      return (await tx.codesById(wanted)).map((s) => ({ id: s.id, parents: s.parents }));
    },
    codeOf: (id) => codeOfStoredId(id, req.system),
  });
  if (errors.length > 0) {
    throw new ImportRejected(`${errors.length} problem(s) with parents in ${req.file}; nothing was imported`, errors);
  }
}

/**
 * Changes dated before the system's latest change sort behind the position
 * of every client that has followed the system's changes past that date.
 */
export async function refuseBackdating(tx: ImportTransaction, req: ImportRequest, changeCount: number): Promise<void> {
  if (changeCount === 0 || req.allowBackdated) return;
  const latest = await tx.latestEffectiveDate(req.system);
  if (latest !== null && req.effectiveDate < latest) {
    throw new ImportRejected(
      (name) =>
        `${name('effectiveDate')} ${req.effectiveDate} is before the latest change of system ${req.system} (${latest}): clients following its changes past ${latest} would never see these ${changeCount} change(s). Pass ${name('allowBackdated')} to record them anyway.`,
    );
  }
}

/**
 * A snapshot retires what it leaves out, so a truncated or wrong file would
 * retire most of a system. More than half of the codes still in use is
 * taken as that, unless the operator says it is meant.
 */
export function refuseMassRetirement(req: ImportRequest, changes: readonly { type: ChangeType }[], current: Map<string, { status: CodeStatus }>): void {
  if (req.mode !== 'snapshot' || req.allowMassRetire) return;
  const retiring = changes.filter((p) => p.type === 'retired').length;
  if (retiring === 0) return;
  let inUse = 0;
  for (const state of current.values()) if (state.status !== 'retired') inUse++;
  if (retiring * 2 > inUse) {
    throw new ImportRejected(
      (name) =>
        `this snapshot would retire ${retiring} of the ${inUse} codes of system ${req.system} not yet retired (more than half): is the file complete? Pass ${name('allowMassRetire')} to retire them anyway.`,
    );
  }
}

/**
 * A release name names one import of a system. Importing it again is fine
 * while it changes nothing (the same file twice); a correction that changes
 * codes gets a name of its own, as publishers name corrected releases.
 */
export function refuseReusedRelease(req: ImportRequest, releaseKnown: boolean, changes: number): void {
  if (!releaseKnown || changes === 0) return;
  throw new ImportRejected(
    `release "${req.release}" of system ${req.system} was imported before, and this file would change ${changes} code(s); ` +
      `import it under a new release name (e.g. "${req.release}-1"); nothing was imported`,
  );
}
