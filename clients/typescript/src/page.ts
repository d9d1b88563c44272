/**
 * What a collection method returns: awaited, one page; iterated with
 * `for await`, every record of every page, in order. Nothing is sent until
 * one or the other begins.
 */
import { CodebookConnectionError } from './errors.ts';
import type { Page } from './types.ts';

/** The page envelope every collection answers with. */
export interface PageEnvelope<T> {
  data: T[];
  pagination: { has_more: boolean; next_cursor?: string };
}

/** Fetches the page after a cursor (undefined: the first page), with the walk's parameters and limit. */
export type PageFetcher<T> = (cursor: string | undefined) => Promise<PageEnvelope<T>>;

export function toPage<T>(envelope: PageEnvelope<T>): Page<T> {
  const { has_more: hasMore, next_cursor: nextCursor } = envelope.pagination;
  // Without a cursor there is no way on: say so rather than loop on the first page.
  if (hasMore && typeof nextCursor !== 'string')
    throw new CodebookConnectionError('A page said has_more without a next_cursor.', { status: 200, retryable: false });
  return { data: envelope.data, hasMore, nextCursor: hasMore ? nextCursor : undefined };
}

// Shaped like a Promise, so that it goes wherever one is expected (Promise.all, assert.rejects, a Promise-typed return).
export class PageRequest<T> implements Promise<Page<T>>, AsyncIterable<T> {
  readonly [Symbol.toStringTag] = 'PageRequest';
  readonly #fetchPage: PageFetcher<T>;
  readonly #cursor: string | undefined;
  #first: Promise<Page<T>> | undefined;

  constructor(fetchPage: PageFetcher<T>, cursor: string | undefined) {
    this.#fetchPage = fetchPage;
    this.#cursor = cursor;
  }

  #firstPage(): Promise<Page<T>> {
    this.#first ??= this.#fetchPage(this.#cursor).then(toPage);
    return this.#first;
  }

  then<A = Page<T>, B = never>(
    onfulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#firstPage().then(onfulfilled, onrejected);
  }

  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<T> | B> {
    return this.#firstPage().catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<Page<T>> {
    return this.#firstPage().finally(onfinally);
  }

  /** Every page in turn, each next cursor sent with the same parameters and limit, until has_more is false. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let page = await this.#firstPage();
    yield page;
    while (page.nextCursor !== undefined) {
      page = toPage(await this.#fetchPage(page.nextCursor));
      yield page;
    }
  }

  /** Every record of every page, in order. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) {
      for (const record of page.data) yield record;
    }
  }
}
