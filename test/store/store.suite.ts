/**
 * The one suite every Store backend must pass. It reaches the store through
 * the Store interface only, so PostgreSQL runs it unchanged:
 *
 *   storeSuite('postgres', async () => ({ store, dir, cleanup }));
 *
 * Each test opens a fresh store with `open` and cleans it up afterwards.
 */
import { describe } from 'node:test';
import { changeTests } from './suite-changes.ts';
import { codeTests } from './suite-codes.ts';
import { importTests } from './suite-imports.ts';
import { searchTests } from './suite-search.ts';
import { navigationTests } from './suite-navigation.ts';
import type { OpenedStore } from './suite-fixtures.ts';

export type { OpenedStore } from './suite-fixtures.ts';

export function storeSuite(name: string, open: () => Promise<OpenedStore>): void {
  describe(`Store (${name})`, () => {
    describe('codes', () => codeTests(open));
    describe('changes', () => changeTests(open));
    describe('imports and settings', () => importTests(open));
    describe('search', () => searchTests(open));
    describe('navigation', () => navigationTests(open));
  });
}
