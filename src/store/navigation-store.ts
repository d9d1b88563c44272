/**
 * Reads that navigate the code set: the hierarchy (children, descendants,
 * ancestors, roots), the records as they stood on a past date, and many codes
 * in one call. Both backends implement it (src/store/sqlite/navigation.ts,
 * src/store/postgres/navigation.ts) and pass the same suite.
 */
import type { CodeVersion } from '../domain/history.ts';
import type { JsonText } from '../domain/json-text.ts';
import type { AncestorKey, AncestorsQuery, AsOfPageQuery, BatchRecords, RelativesQuery, RootsQuery } from '../domain/navigation.ts';
import type { RawPage } from '../domain/pages.ts';
import type { CodeRecord } from '../domain/records.ts';

export type { AncestorKey, AncestorsQuery, AsOfPageQuery, BatchRecords, RelativesQuery, RootsQuery } from '../domain/navigation.ts';

export interface NavigationStore {
  pageChildren(query: RelativesQuery): Promise<RawPage<string, CodeRecord>>;
  /** Every code below, each once whatever the number of paths to it, by id. */
  pageDescendants(query: RelativesQuery): Promise<RawPage<string, CodeRecord>>;
  pageAncestors(query: AncestorsQuery): Promise<RawPage<AncestorKey, CodeRecord>>;
  /** Codes of the system with no parents, by id. */
  pageRoots(query: RootsQuery): Promise<RawPage<string, CodeRecord>>;
  systemExists(system: string): Promise<boolean>;

  /** The record of a code as it stood on `asOf`, or null when it did not exist then. */
  codeJsonAsOf(id: string, asOf: string): Promise<JsonText<CodeRecord> | null>;
  pageCodesAsOf(query: AsOfPageQuery): Promise<RawPage<string, CodeRecord>>;
  /** The records of the ids found (now, or on `asOf`) and the ids not found; `ids` holds each id once. */
  codesBatch(ids: readonly string[], asOf: string | null): Promise<BatchRecords>;
}

/** What an import writes for the navigation reads, inside its transaction. */
export interface NavigationWriter {
  /**
   * Replaces the parents of these codes (an empty list: the code has none),
   * in the import's chunks: the hierarchy is never held whole in memory.
   */
  replaceParents(codes: readonly { id: string; parents: readonly string[] }[]): Promise<void>;
  /**
   * Rebuilds the system's closure from its edges in the database when it has
   * at most `budget` rows, else drops it (reads walk the edges); returns
   * whether it is kept.
   */
  rebuildClosure(system: string, budget: number): Promise<boolean>;
  /** The latest version's record of each code (by effective date, then change id); codes without one are absent. */
  latestVersions(codeIds: readonly string[]): Promise<Map<string, string>>;
  /** Appends versions: each closes the open version of its code at its validFrom. */
  appendVersions(versions: CodeVersion[], closePrevious: boolean): Promise<void>;
  /** Rebuilds every version of these codes from their changes (a back-dated import). */
  rebuildVersions(codeIds: readonly string[]): Promise<void>;
}
