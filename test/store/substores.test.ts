/** The sub-store suite on SQLite (PostgreSQL runs it in postgres.test.ts). */
import { openTempSqliteStore } from '../helpers/context.ts';
import { subStoreSuite } from './substores.suite.ts';

subStoreSuite('sqlite', openTempSqliteStore);
