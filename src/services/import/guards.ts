/**
 * What an import may not do to a system, whatever its rows say: break the
 * hierarchy (graph-check.ts), go back behind the system's latest effective date, or retire most of
 * the system at once. Each is refused with one message that says what to do.
 */
import { ImportRejected, type ImportRequest } from './request.ts';

/**
 * Changes dated before the system's latest effective date (its
 * latest_effective_date: the latest date of its releases, a release that
 * changed nothing included) sort behind the position of every client that
 * has followed the system's changes up to that date, and behind a client that
 * asks for its changes from that date on (`effective_from`).
 */
export function refuseBackdating(req: ImportRequest, latest: string | null, changeCount: number): void {
  if (changeCount === 0 || req.allowBackdated) return;
  if (latest !== null && req.effectiveDate < latest) {
    throw new ImportRejected(
      (name) =>
        `${name('effectiveDate')} ${req.effectiveDate} is before the latest effective date of system ${req.system} (${latest}): clients following its changes from ${latest} on would never see these ${changeCount} change(s). Pass ${name('allowBackdated')} to record them anyway.`,
    );
  }
}

/**
 * A snapshot retires what it leaves out, so a truncated or wrong file would
 * retire most of a system. More than half of the codes still in use is
 * taken as that, unless the operator says it is meant.
 */
export function refuseMassRetirement(req: ImportRequest, retiring: number, inUse: number): void {
  if (req.mode !== 'snapshot' || req.allowMassRetire) return;
  if (retiring === 0) return;
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
