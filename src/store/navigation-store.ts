/**
 * Reads that navigate the code set: the hierarchy (children, descendants,
 * ancestors, roots), the records as they stood on a past date, and many codes
 * in one call. Both backends implement it (src/store/sqlite/navigation.ts,
 * src/store/postgres/navigation.ts) and pass the same suite.
 */
import type { CodeStatus } from '../domain/records.ts';
import type { CodeVersion } from '../domain/history.ts';
import type { ClosureRow } from '../domain/closure.ts';
import type { RawPage } from './store.ts';

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

export interface NavigationStore {
  pageChildren(query: RelativesQuery): Promise<RawPage<string>>;
  /** Every code below, each once whatever the number of paths to it, by id. */
  pageDescendants(query: RelativesQuery): Promise<RawPage<string>>;
  pageAncestors(query: AncestorsQuery): Promise<RawPage<AncestorKey>>;
  /** Codes of the system with no parents, by id. */
  pageRoots(query: RootsQuery): Promise<RawPage<string>>;
  systemExists(system: string): Promise<boolean>;

  /** The record of a code as it stood on `asOf`, or null when it did not exist then. */
  codeJsonAsOf(id: string, asOf: string): Promise<string | null>;
  pageCodesAsOf(query: AsOfPageQuery): Promise<RawPage<string>>;
  /** The records of the ids found (now, or on `asOf`), keyed by id; unknown ids are absent. */
  codesJson(ids: readonly string[], asOf: string | null): Promise<Map<string, string>>;
}

/** What an import writes for the navigation reads, inside its transaction. */
export interface NavigationWriter {
  /** child → parents of every code of the system that has parents, as stored. */
  systemParents(system: string): Promise<Map<string, string[]>>;
  /**
   * Replaces the system's edges with `parents`, and its closure with `closure`;
   * null: too large to keep, reads walk the edges.
   */
  writeHierarchy(system: string, parents: ReadonlyMap<string, readonly string[]>, closure: ClosureRow[] | null): Promise<void>;
  /** The latest version's record of each code (by effective date, then change id); codes without one are absent. */
  latestVersions(codeIds: readonly string[]): Promise<Map<string, string>>;
  /** Appends versions: each closes the open version of its code at its validFrom. */
  appendVersions(versions: CodeVersion[], closePrevious: boolean): Promise<void>;
  /** Rebuilds every version of these codes from their changes (a back-dated import). */
  rebuildVersions(codeIds: readonly string[]): Promise<void>;
}
