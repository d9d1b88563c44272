/**
 * What /openapi.json says about itself: the licence, the version (the
 * package's), and where the API is served.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { createTestContext } from '../helpers/context.ts';
import { ROOT } from '../helpers/cli.ts';

const packageJson = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { version: string; license: string };

async function documentWith(env: Record<string, string> = {}) {
  const ctx = await createTestContext(env);
  try {
    const res = await ctx.get('/openapi.json');
    assert.equal(res.statusCode, 200);
    return res.json<{ info: { version: string; license?: { name: string; identifier?: string } }; servers?: { url: string }[] }>();
  } finally {
    await ctx.close();
  }
}

test('info.version is the package version, and the licence is the package licence', async () => {
  const doc = await documentWith();
  assert.match(packageJson.version, /^\d+\.\d+\.\d+$/);
  assert.equal(doc.info.version, packageJson.version);
  assert.equal(packageJson.license, 'Apache-2.0');
  assert.deepEqual(doc.info.license, { name: 'Apache 2.0', identifier: 'Apache-2.0' });
  assert.match(readFileSync(`${ROOT}LICENSE`, 'utf8'), /Apache License\s+Version 2\.0, January 2004/);
});

test('servers: PUBLIC_URL when it is set, else the host that serves the document', async () => {
  assert.deepEqual(
    (await documentWith()).servers?.map((s) => s.url),
    ['/'],
  );
  assert.deepEqual(
    (await documentWith({ PUBLIC_URL: 'https://codes.example.org/' })).servers?.map((s) => s.url),
    ['https://codes.example.org'],
  );
});
