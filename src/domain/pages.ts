/** Pages of the code set: the queries the read endpoints ask, and the page the store answers with. */
import type { JsonItems } from './json-text.ts';
import type { ChangeType, CodeStatus } from './records.ts';

export interface CodePageQuery {
  /** Exclusive lower bound on id (binary order). */
  after: string | null;
  limit: number;
  system: string | null;
  status: CodeStatus | null;
}

export interface ChangeKey {
  effectiveDate: string;
  id: number;
}

export interface ChangePageQuery {
  /** Exclusive lower bound on (effective_date, id). */
  after: ChangeKey | null;
  limit: number;
  system: string | null;
  codeId: string | null;
  type: ChangeType | null;
  effectiveFrom: string | null;
  effectiveTo: string | null;
  /** Only changes of this release (the import that produced them). */
  release?: string | null;
}

/** A page as the store returns it: the records' JSON joined by commas. */
export interface RawPage<K, T = unknown> {
  /** `rec1,rec2,…` — empty string when the page is empty. */
  json: JsonItems<T>;
  count: number;
  /** Sort key of the last record on the page; null when the page is empty. */
  last: K | null;
  hasMore: boolean;
}

/** A page as every collection sends it (the page envelope). */
export interface Page<T> {
  data: T[];
  pagination: { has_more: boolean; next_cursor?: string };
}
