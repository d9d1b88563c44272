/**
 * The pages outside /v1 and the dashboard, through inject(): the landing page
 * at /, the API reference at /docs, the icons. No key needed, nothing loaded
 * from another host, a Content-Security-Policy on each page, none of it in
 * the OpenAPI document.
 */
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { createTestContext, type TestContext } from '../helpers/context.ts';

let ctx: TestContext;

before(async () => {
  ctx = await createTestContext();
});
after(() => ctx.close());

/** Without a key: these pages are public. */
const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });

function cspOf(header: unknown): Map<string, string[]> {
  assert.equal(typeof header, 'string', 'a Content-Security-Policy header');
  return new Map(
    (header as string)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** Every script, stylesheet and icon a page loads: all on this host, and all served. */
async function assertAssetsServedHere(html: string): Promise<string[]> {
  const urls = [...html.matchAll(/<(?:script|link|img)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  assert.ok(urls.length > 0);
  for (const url of urls) {
    assert.doesNotMatch(url, /^(?:[a-z][a-z0-9+.-]*:)?\/\//i, `${url} is on another host`);
    const res = await get(url);
    assert.equal(res.statusCode, 200, `${url} is served here`);
  }
  return urls;
}

describe('GET /', () => {
  test('says what this is and links to the reference, the OpenAPI document, the dashboard and health', async () => {
    const res = await get('/');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<h1>Codebook<\/h1>/);
    assert.match(res.body, /code set/);
    for (const href of ['/docs', '/openapi.json', '/dashboard', '/healthz']) assert.ok(res.body.includes(`href="${href}"`), `links to ${href}`);
    assert.ok(res.body.includes('name="viewport"'), 'laid out for phones');
    const urls = await assertAssetsServedHere(res.body);
    assert.ok(urls.includes('/dashboard/assets/dashboard.css'), "in the dashboard's visual language");
    assert.ok(urls.includes('/favicon.svg'));
  });

  test('is served under a strict Content-Security-Policy', async () => {
    const res = await get('/');
    const csp = cspOf(res.headers['content-security-policy']);
    assert.deepEqual(csp.get('default-src'), ["'none'"]);
    assert.deepEqual(csp.get('style-src'), ["'self'"]);
    assert.deepEqual(csp.get('script-src'), ["'self'"]);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['x-frame-options'], 'DENY');
  });

  test('its example request names the address the page was reached at, escaped', async () => {
    assert.match(
      (await get('/', { host: 'codes.example.org:8443' })).body,
      /curl -H "Authorization: Bearer \$KEY" "http:\/\/codes\.example\.org:8443\/v1\/codes\?limit=2"/,
    );
    // A Host that is no host is refused at the front door (RFC 9112 §3.2); one the grammar allows may still hold & and '.
    const hostile = await get('/', { host: 'x"><script>alert(1)</script>' });
    assert.equal(hostile.statusCode, 400);
    assert.ok(!hostile.body.includes('<script>'), 'the Host header is not echoed');
    const odd = await get('/', { host: "a&b'c.example" });
    assert.equal(odd.statusCode, 200);
    assert.ok(odd.body.includes('a&amp;b&#39;c.example') && !odd.body.includes("a&b'c"), 'the Host header is escaped');
  });
});

describe('the icons', () => {
  test('/favicon.ico is an icon', async () => {
    const res = await get('/favicon.ico');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^image\/(x-icon|vnd\.microsoft\.icon)/);
    const ico = res.rawPayload;
    assert.deepEqual([...ico.subarray(0, 4)], [0, 0, 1, 0], 'an ICO header');
    const images = ico.readUInt16LE(4);
    assert.ok(images >= 1);
    for (let i = 0; i < images; i++) {
      const size = ico.readUInt32LE(6 + 16 * i + 8);
      const offset = ico.readUInt32LE(6 + 16 * i + 12);
      assert.ok(offset + size <= ico.length, `image ${i} lies within the file`);
      assert.equal(ico.subarray(offset + 1, offset + 4).toString('latin1'), 'PNG', `image ${i} is a PNG`);
    }
  });

  test('/favicon.svg is the same icon as SVG', async () => {
    const res = await get('/favicon.svg');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^image\/svg\+xml/);
    assert.match(res.body, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });
});

describe('GET /docs', () => {
  test('is a page of its own that loads only scripts and styles from this host', async () => {
    const res = await get('/docs');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<title>Codebook API reference<\/title>/);
    assert.doesNotMatch(res.body, /<script>|<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
    assert.doesNotMatch(res.body, /\sstyle=|<style/, 'no inline style in the page itself');
    const urls = await assertAssetsServedHere(res.body);
    assert.ok(urls.includes('/assets/scalar.js') && urls.includes('/assets/docs.js'));
    for (const url of urls.filter((u) => u.endsWith('.js'))) assert.match(String((await get(url)).headers['content-type']), /^(text|application)\/javascript/);
  });

  test('its Content-Security-Policy allows scripts from this host only, and never upgrades plain HTTP', async () => {
    const csp = cspOf((await get('/docs')).headers['content-security-policy']);
    assert.deepEqual(csp.get('default-src'), ["'none'"]);
    assert.deepEqual(csp.get('script-src'), ["'self'"], 'no inline script, no eval');
    assert.deepEqual(csp.get('connect-src'), ["'self'"], 'fetches /openapi.json and nothing else');
    assert.ok(!csp.has('upgrade-insecure-requests'), 'over plain HTTP on a host that is not localhost it would leave the page blank');
    for (const [directive, values] of csp) {
      assert.ok(!values.some((v) => /^(https?:|\*|'unsafe-eval')/.test(v)), `${directive} admits no other host and no eval`);
    }
  });

  test("the renderer's bundle is gzipped for browsers that accept it and revalidated by its ETag", async () => {
    const plain = await get('/assets/scalar.js');
    assert.equal(plain.statusCode, 200);
    assert.ok(plain.rawPayload.length > 1_000_000, 'the whole bundle');
    assert.match(plain.body, /createApiReference/);
    const zipped = await get('/assets/scalar.js', { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.ok(zipped.rawPayload.length < plain.rawPayload.length / 2);
    assert.ok(gunzipSync(zipped.rawPayload).equals(plain.rawPayload));
    const etag = String(plain.headers.etag);
    assert.equal((await get('/assets/scalar.js', { 'if-none-match': etag })).statusCode, 304);
  });

  test('/docs/ leads to /docs', async () => {
    const res = await get('/docs/');
    assert.equal(res.statusCode, 301);
    assert.equal(res.headers.location, '/docs');
  });
});

test('none of these pages is part of the OpenAPI document', async () => {
  const paths = Object.keys((await get('/openapi.json')).json().paths);
  assert.ok(paths.length > 0 && paths.every((p) => p.startsWith('/v1/')), paths.join(', '));
});
