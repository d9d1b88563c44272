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

export async function loadDemo(
  store: Store,
  options: ImportOptions & { onRelease?: (summary: ImportSummary) => void } = {},
): Promise<ImportSummary[]> {
  const manifest = JSON.parse(readFileSync(join(DEMO_DIR, 'manifest.json'), 'utf8')) as Manifest;
  const summaries: ImportSummary[] = [];
  for (const system of manifest.systems) {
    for (const release of system.releases) {
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
