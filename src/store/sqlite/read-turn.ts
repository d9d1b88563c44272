/**
 * One read transaction per turn of the event loop on the server's connection.
 *
 * A statement run outside a transaction begins and ends one of its own, and
 * in WAL mode that takes and drops a shared lock on the file (two fcntl()
 * calls) and checks its size (fstat()) each time. On a machine where system
 * calls are dear that is most of a small read: looking up a key by its hash
 * took 9.3 µs a statement on its own and 0.4 µs inside a transaction. So the
 * first statement of a turn begins a transaction (deferred: it takes the
 * lock at its first read), and a setImmediate callback ends it once the turn's
 * callbacks have run. Every read of the turn shares that snapshot; a read in a
 * later turn sees every commit made before that turn began, as an
 * autocommit statement would.
 *
 * A write must not join it: the transaction would become a write one and
 * commit only at the end of the turn, or fail if another connection committed
 * meanwhile. Every write of the server's connection goes through tryWrite()
 * (busy.ts), which ends the turn's transaction first; VACUUM INTO and
 * close() end it too. A write this process commits on any connection (an
 * import's, another store's) is noted (noteWrite), and a turn begun before it
 * ends at its next statement: what this process wrote, it reads back at once.
 *
 * A turn can outlast its turn of the loop (begun in a timer callback, it stays
 * open through the poll phase that follows, whose I/O callbacks run before its
 * setImmediate end; a long callback or a collection stretches it), so a
 * transaction older than FRESHNESS_WINDOW_MS is ended at the next statement
 * and another begun. Every writer in any process returns SETTLE_MS
 * after its commit (write-window.ts): a read after it returned reads a
 * snapshot begun after that commit. The data_version check ends the turn
 * before it runs (SqliteStore): inside a transaction it would not move.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { FRESHNESS_WINDOW_MS } from './write-window.ts';

interface Turn {
  begin: StatementSync;
  commit: StatementSync;
  open: boolean;
  /** writes when it began. */
  writes: number;
  /** performance.now() when it began. */
  since: number;
}

const turns = new WeakMap<DatabaseSync, Turn>();
/** Writes this process has committed, on any connection. */
let writes = 0;

/** A write was committed by this process (any connection): turns begun before it end at their next statement. */
export function noteWrite(): void {
  writes++;
}

/** Begins the turn's read transaction on db unless one (or any other transaction) is open. */
export function readInTurn(db: DatabaseSync): void {
  let turn = turns.get(db);
  const now = performance.now();
  if (turn?.open === true) {
    if (turn.writes === writes && now - turn.since < FRESHNESS_WINDOW_MS) return;
    endReadTurn(db);
  }
  if (db.isTransaction) return;
  if (turn === undefined) turns.set(db, (turn = { begin: db.prepare('BEGIN'), commit: db.prepare('COMMIT'), open: false, writes, since: now }));
  turn.begin.run();
  turn.open = true;
  turn.writes = writes;
  turn.since = now;
  setImmediate(endReadTurn, db);
}

/** Ends the turn's read transaction on db, if it has one open. */
export function endReadTurn(db: DatabaseSync): void {
  const turn = turns.get(db);
  if (turn === undefined || !turn.open) return;
  turn.open = false;
  if (db.isOpen && db.isTransaction) turn.commit.run();
}
