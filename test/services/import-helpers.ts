/** A real SQLite store in a temp folder, and ways to import text into it and read back what a client would see. */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeRecord, CodeRecord } from '../../src/domain/records.ts';
import { runImport, type ImportOptions, type ImportRequest, type ImportSummary } from '../../src/services/import/importer.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import type { ChangeKey, Store } from '../../src/store/store.ts';
import { tempDir } from '../helpers/context.ts';

export interface ImportFixture {
  store: Store;
  dir: string;
  /**
   * Writes text to a file and imports it; defaults: system t, csv, delta, 2024-01-01, and a release
   * name of its own (r1 for the fixture's first import, r2 for its second…), as a release changes codes once.
   */
  importText(text: string, request?: Partial<Omit<ImportRequest, 'file'>>, options?: ImportOptions): Promise<ImportSummary>;
  codes(): Promise<CodeRecord[]>;
  code(id: string): Promise<CodeRecord | null>;
  changes(): Promise<ChangeRecord[]>;
  /** Everything a client can read, as text: equal snapshots mean nothing was written. */
  snapshot(): Promise<string>;
  close(): Promise<void>;
}

let files = 0;

export function openImportFixture(): ImportFixture {
  const dir = tempDir();
  return importFixture(new SqliteStore({ path: join(dir, 'codebook.db') }), dir, async () => undefined);
}

/** The fixture over any store; `dir` holds the files it imports and is removed by close(), after `cleanup`. */
export function importFixture(store: Store, dir: string, cleanup: () => Promise<void>): ImportFixture {
  let imports = 0;
  const fixture: ImportFixture = {
    store,
    dir,
    importText(text, request = {}, options = {}) {
      const format = request.format ?? 'csv';
      const file = join(dir, `import-${++files}.${format}`);
      writeFileSync(file, text);
      return runImport(store, { system: 't', release: `r${++imports}`, effectiveDate: '2024-01-01', format, mode: 'delta', ...request, file }, options);
    },
    async codes() {
      const out: CodeRecord[] = [];
      let after: string | null = null;
      for (;;) {
        const page = await store.pageCodes({ after, limit: 200, system: null, status: null });
        out.push(...(JSON.parse(`[${page.json.toString('utf8')}]`) as CodeRecord[]));
        if (!page.hasMore) return out;
        after = page.last;
      }
    },
    async code(id) {
      const json = await store.codeJson(id);
      return json === null ? null : (JSON.parse(json) as CodeRecord);
    },
    async changes() {
      const out: ChangeRecord[] = [];
      let after: ChangeKey | null = null;
      for (;;) {
        const page = await store.pageChanges({ after, limit: 200, system: null, codeId: null, type: null, effectiveFrom: null, effectiveTo: null });
        out.push(...(JSON.parse(`[${page.json.toString('utf8')}]`) as ChangeRecord[]));
        if (!page.hasMore) return out;
        after = page.last;
      }
    },
    async snapshot() {
      return JSON.stringify([await fixture.codes(), await fixture.changes()]);
    },
    async close() {
      await store.close();
      await cleanup();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return fixture;
}

/** The parts of a change a test states exactly (id, dates and times vary). */
export function changeShape(c: ChangeRecord) {
  return { code_id: c.code_id, type: c.type, fields: c.fields, before: c.before, after: c.after };
}
