/** The queries of the navigation reads: the hierarchy around a code, and the code set on a past date. */
import type { CodeStatus } from './records.ts';

export interface RelativesQuery {
  /** The code whose relatives are listed. */
  id: string;
  /** Exclusive lower bound on the relative's id. */
  after: string | null;
  limit: number;
  status: CodeStatus | null;
}

/** Position in an ancestors walk: nearest first, then by id. */
export interface AncestorKey {
  distance: number;
  id: string;
}

export interface AncestorsQuery {
  id: string;
  after: AncestorKey | null;
  limit: number;
  status: CodeStatus | null;
}

export interface RootsQuery {
  system: string;
  after: string | null;
  limit: number;
  status: CodeStatus | null;
}

export interface AsOfPageQuery {
  /** YYYY-MM-DD: the records once every change effective on or before it was applied. */
  asOf: string;
  after: string | null;
  limit: number;
  system: string | null;
  status: CodeStatus | null;
}

/**
 * A batch read's answer as bytes, ready to be written: the records found, in
 * the order asked, as the inside of a JSON array (UTF-8 objects separated by
 * commas); then the ids not found, in the order asked. As bytes, a 200-id
 * batch (~90 KB) never becomes text on the event loop's heap (see
 * docs/decisions.md, "Navigating codes").
 */
export interface BatchRecords {
  json: Buffer;
  missing: string[];
}
