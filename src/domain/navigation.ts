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
