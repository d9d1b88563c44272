/** What an import reports, and how it reports progress. */
import type { ImportMode } from './request.ts';

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
  /** From the start of reading the file to the commit seen by running servers. */
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
