/**
 * A graceful stop writes every pending count: the database may be busy with
 * another writer (an import) for a while, so the flush is tried again every
 * 50 ms while anything is still pending, for at most CLOSE_RETRY_MS.
 */

/** How long a graceful stop keeps trying to write counts while the database is busy. */
export const CLOSE_RETRY_MS = 5000;

export async function flushUntilWritten(flush: () => Promise<void>, pending: () => boolean): Promise<void> {
  const deadline = Date.now() + CLOSE_RETRY_MS;
  await flush();
  while (pending() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    await flush();
  }
}
