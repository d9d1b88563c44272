/** The sub-store suite on SQLite (PostgreSQL runs it in postgres.test.ts). */
import { openTempSqliteStore } from '../helpers/context.ts';
import { subStoreSuite } from './substores.suite.ts';
import { keyLifeStoreSuite } from './key-life.suite.ts';

subStoreSuite('sqlite', openTempSqliteStore);
keyLifeStoreSuite('sqlite', openTempSqliteStore);
