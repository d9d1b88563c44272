/**
 * npm run lint:openapi: builds the app as the server does (on an in-memory
 * database), writes the /openapi.json it serves to a temporary file, and lints
 * it with Redocly CLI's recommended rules (redocly.yaml). Exits as the linter does.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { createDeps } from '../src/deps.ts';
import { buildApp } from '../src/http/app.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

async function openApiDocument(): Promise<string> {
  const deps = await createDeps(loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' }));
  try {
    const app = await buildApp(deps);
    try {
      const res = await app.inject({ method: 'GET', url: '/openapi.json' });
      if (res.statusCode !== 200) throw new Error(`/openapi.json answered ${res.statusCode}: ${res.body}`);
      return res.body;
    } finally {
      await app.close();
    }
  } finally {
    await deps.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'codebook-openapi-'));
try {
  const file = join(dir, 'openapi.json');
  writeFileSync(file, await openApiDocument());
  const lint = spawnSync(join(root, 'node_modules', '.bin', 'redocly'), ['lint', '--config', join(root, 'redocly.yaml'), 'openapi.json'], {
    cwd: dir,
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  if (lint.error) throw lint.error;
  process.exitCode = lint.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
