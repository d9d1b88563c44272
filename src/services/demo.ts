/** The demo data set that ships with the project (data/demo), loaded release by release. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from '../store/store.ts';
import { runImport, type ImportMode, type ImportOptions, type ImportSummary } from './import/importer.ts';
import type { ImportFormat } from './import/parse.ts';

export const DEMO_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'data', 'demo');

interface Manifest {
  systems: {
    system: string;
    format: ImportFormat;
    mode: ImportMode;
    releases: { release: string; effective_date: string; file: string }[];
  }[];
}

export interface DemoOptions extends ImportOptions {
  onRelease?: (summary: ImportSummary) => void;
  /** A release skipped because it, or a later one, is already loaded. */
  onSkip?: (release: { system: string; release: string; effectiveDate: string }) => void;
}

/**
 * Imports the releases not loaded yet, so running it again records no change
 * and resumes an interrupted load. A release counts as loaded when the system
 * has a change dated on or after it: re-importing an older snapshot over a
 * newer state would record the reverse of every later change.
 */
export async function loadDemo(store: Store, options: DemoOptions = {}): Promise<ImportSummary[]> {
  const manifest = JSON.parse(readFileSync(join(DEMO_DIR, 'manifest.json'), 'utf8')) as Manifest;
  const summaries: ImportSummary[] = [];
  for (const system of manifest.systems) {
    for (const release of system.releases) {
      if (await hasChangeSince(store, system.system, release.effective_date)) {
        options.onSkip?.({ system: system.system, release: release.release, effectiveDate: release.effective_date });
        continue;
      }
      const summary = await runImport(
        store,
        {
          file: join(DEMO_DIR, release.file),
          system: system.system,
          release: release.release,
          effectiveDate: release.effective_date,
          format: system.format,
          mode: system.mode,
        },
        options,
      );
      options.onRelease?.(summary);
      summaries.push(summary);
    }
  }
  return summaries;
}

async function hasChangeSince(store: Store, system: string, date: string): Promise<boolean> {
  const page = await store.pageChanges({ after: null, limit: 1, system, codeId: null, type: null, effectiveFrom: date, effectiveTo: null });
  return page.count > 0;
}
