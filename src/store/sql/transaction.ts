/**
 * What Store.withTransaction() hands its function: the shared queries over
 * the transaction's own Sql (one connection inside BEGIN … COMMIT), so every
 * statement of it commits together or not at all.
 */
import type { WriteTransaction } from '../store.ts';
import { SqlAccessStore } from './access-queries.ts';
import { SqlDashboardStore } from './dashboard-queries.ts';
import { SqlKeyRecords } from './key-life-queries.ts';
import type { Sql } from './sql.ts';

/** lastUsedAt: as SqlAccessStore's (where the backend keeps a key's last use). */
export function transactionOver(sql: Sql, lastUsedAt?: string): WriteTransaction {
  return { access: new SqlAccessStore(sql, lastUsedAt), dashboard: new SqlDashboardStore(sql), keyLife: new SqlKeyRecords(sql) };
}
