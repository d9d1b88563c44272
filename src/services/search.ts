/**
 * Search as the HTTP layer asks for it: the query checked and folded, the
 * page read from the store. No HTTP, no SQL.
 */
import type { CodeRecord, CodeStatus } from '../domain/records.ts';
import { searchTerms } from '../domain/search-text.ts';
import { ApiError } from '../errors.ts';
import type { CodeSearchQuery, SearchKey } from '../store/search-walk.ts';
import type { RawPage } from '../domain/pages.ts';
import type { CatalogStore } from './catalog.ts';

export const QUERY_MAX_LENGTH = 200;

/** The query as searched: trimmed, 1–200 characters; invalid_parameter (q) otherwise. */
export function searchQueryText(q: unknown): string {
  const text = typeof q === 'string' ? q.trim() : '';
  const length = [...text].length;
  if (length === 0 || length > QUERY_MAX_LENGTH) {
    const got = typeof q !== 'string' ? 'none' : length === 0 ? 'an empty value' : `${length} characters`;
    throw new ApiError('invalid_parameter', `The q parameter must be the text to search for, 1 to ${QUERY_MAX_LENGTH} characters once trimmed; got ${got}.`, {
      param: 'q',
    });
  }
  return text;
}

export interface SearchRequest {
  q: string;
  after: SearchKey | null;
  limit: number;
  system: string | null;
  status: CodeStatus | null;
}

export async function searchCodes(store: CatalogStore, request: SearchRequest): Promise<RawPage<SearchKey, CodeRecord>> {
  const query: CodeSearchQuery = { terms: searchTerms(request.q), after: request.after, limit: request.limit, system: request.system, status: request.status };
  return store.searchCodes(query);
}
