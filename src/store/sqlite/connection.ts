/**
 * Opening a connection to the store's file, as every connection of the
 * store's (the server's, an import's, a transaction's) is opened.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { explainUnopenable } from './unopenable.ts';

/**
 * Page size of a database file this store creates (SQLite's default is 4 KiB).
 * An import writes every page it fills to the WAL and then again into the
 * file, a system call or two per page: with 16 KiB pages the 1 000 000-code
 * snapshot imported 4–9 % faster (five alternated pairs) and the 5 000 000-
 * code one 14 %, its deltas no slower, and reads of records, pages and the
 * word index cost the same (docs/decisions.md).
 * A file that exists keeps the page size it was made with (SQLite changes it
 * only by rewriting the whole file, outside WAL mode).
 */
export const NEW_FILE_PAGE_SIZE = 16_384;

/**
 * mmapBytes > 0: the connection reads the file through a memory map, so a page
 * read is a memory access instead of a pread() (a random record at 1 000 000
 * codes: 11.4 → 7.2 µs, a 200-id batch 6.6 → 3.5 µs an id). The pages mapped
 * are the page cache's, shared and reclaimable, but they count in the
 * process's RSS. See docs/decisions.md for what it costs on a failing disk.
 */
/** The connection, in WAL mode; DatabaseFileError when the file cannot be opened or created, naming it and why. */
export function openDatabase(path: string, busyTimeoutMs: number, mmapBytes: number): DatabaseSync {
  let db: DatabaseSync | undefined;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    db = new DatabaseSync(path);
    // Before anything writes the file's header: a file that holds a database already ignores it.
    db.exec(`PRAGMA page_size = ${NEW_FILE_PAGE_SIZE}`);
    db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec(`PRAGMA mmap_size = ${mmapBytes}`);
    return db;
  } catch (error) {
    if (db?.isOpen) db.close();
    throw explainUnopenable([path], error);
  }
}
