/**
 * A real SQLite store whose code reads fail while `fault` is set: a broken read (500), an unreachable database (503);
 * `duringRead` runs inside each read (a test moves its clock there, as time passes while a slow read runs).
 */
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { StoreUnavailableError, type CodePageQuery } from '../../src/store/store.ts';

export class FaultyStore extends SqliteStore {
  fault: 'broken' | 'unreachable' | null = null;
  duringRead: (() => void) | null = null;

  private failIfFaulty(): void {
    this.duringRead?.();
    if (this.fault === 'broken') throw new Error('disk I/O error');
    if (this.fault === 'unreachable') throw new StoreUnavailableError('the database cannot be reached');
  }

  // Both ways of reading a record (codeJson, and codeJsonNow without a promise) go through this one.
  override codeJsonNow(id: string) {
    this.failIfFaulty();
    return super.codeJsonNow(id);
  }

  override async pageCodes(q: CodePageQuery) {
    this.failIfFaulty();
    return super.pageCodes(q);
  }
}
