/** What an import is asked to do, the checks of the request itself, and the refusal of an import. */
import { isIsoDate, SYSTEM_PATTERN } from '../../domain/records.ts';
import { InvalidRequest, type Reason } from '../../errors.ts';
import type { ImportFormat, RowError } from './parse.ts';

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

/** An import refused as a whole; errors holds the rows at fault, if any. */
export class ImportRejected extends InvalidRequest {
  readonly errors: RowError[];
  constructor(reason: Reason, errors: RowError[] = []) {
    super(reason);
    this.name = 'ImportRejected';
    this.errors = errors;
  }
}

const RELEASE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

export function validateRequest(req: ImportRequest): void {
  if (!SYSTEM_PATTERN.test(req.system)) {
    throw new ImportRejected((name) => `${name('system')} "${req.system}" must match [a-z0-9][a-z0-9._-]{0,63}`);
  }
  if (!RELEASE_PATTERN.test(req.release)) {
    throw new ImportRejected((name) => `${name('release')} "${req.release}" must be 1-64 characters of letters, digits and . _ : -`);
  }
  if (!isIsoDate(req.effectiveDate)) {
    throw new ImportRejected((name) => `${name('effectiveDate')} "${req.effectiveDate}" must be a calendar date, YYYY-MM-DD`);
  }
}
