/** A search's position and query, as the services and the store share them (see store/search-walk.ts). */
import type { CodeStatus } from './records.ts';
import type { SearchTerms } from './search-text.ts';

export type SearchGroup = 1 | 2 | 3 | 4;

/** A position in a search: the group, and the record's sort key in it. */
export interface SearchKey {
  group: SearchGroup;
  /** Folded code (group 2) or folded display (group 3); '' otherwise. */
  text: string;
  /** The code id (groups 1–3); '' in group 4. */
  id: string;
  /** The search sequence (group 4); 0 otherwise. */
  seq: number;
}

export interface CodeSearchQuery {
  terms: SearchTerms;
  /** Exclusive lower bound; null: from the start. */
  after: SearchKey | null;
  limit: number;
  system: string | null;
  status: CodeStatus | null;
}
