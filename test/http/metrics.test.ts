/**
 * /metrics as Prometheus reads it: every request counted by route, status and
 * outcome, its latency in a histogram whose buckets add up, every limit
 * decision counted, the read cache's hits, misses and size, and the
 * registry's other metrics beside them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestContext } from '../helpers/context.ts';

/** The samples of a text exposition: `name{labels}` → value; each family's HELP and TYPE seen once, before its samples. */
function parse(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  const typed = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      assert.ok(!typed.has(type[1]!), `one TYPE line for ${type[1]}`);
      typed.add(type[1]!);
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)$/.exec(line);
    assert.ok(sample, `a sample line: ${line}`);
    const family = sample[1]!.replace(/_(bucket|sum|count)$/, '');
    assert.ok(typed.has(sample[1]!) || typed.has(family), `${sample[1]} comes after its TYPE line`);
    samples.set(`${sample[1]}${sample[2] ?? ''}`, Number(sample[3]));
  }
  return samples;
}

test('/metrics counts each request by route, status and outcome, with its latency and the limit decision', async () => {
  const ctx = await createTestContext();
  try {
    await ctx.importRows([{ code: 'A', display: 'Alpha' }], { system: 'm', release: 'r1', effectiveDate: '2024-01-01' });
    for (let i = 0; i < 3; i++) assert.equal((await ctx.get('/v1/codes/m:A')).statusCode, 200);
    assert.equal((await ctx.get('/v1/codes/m:Z')).statusCode, 404);
    assert.equal((await ctx.get('/v1/codes/m:A', { authorization: `Bearer svc_live_${'x'.repeat(32)}` })).statusCode, 401);
    const response = await ctx.app.inject('/metrics');
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const m = parse(response.body);
    const route = 'route="/v1/codes/:code_id"';
    assert.equal(m.get(`codebook_http_requests_total{${route},status="200",outcome="ok"}`), 3);
    assert.equal(m.get(`codebook_http_requests_total{${route},status="404",outcome="client_error"}`), 1);
    assert.equal(m.get(`codebook_http_requests_total{${route},status="401",outcome="refused_auth"}`), 1);
    assert.equal(m.get(`codebook_http_request_duration_seconds_count{${route}}`), 5);
    assert.equal(m.get(`codebook_http_request_duration_seconds_bucket{le="+Inf",${route}}`), 5);
    let previous = 0;
    for (const le of ['0.0005', '0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5']) {
      const below = m.get(`codebook_http_request_duration_seconds_bucket{le="${le}",${route}}`)!;
      assert.ok(below >= previous && below <= 5, `buckets are cumulative (le=${le}: ${below})`);
      previous = below;
    }
    assert.ok(m.get(`codebook_http_request_duration_seconds_sum{${route}}`)! > 0);
    // The 404 counted toward the limits too; the 401 was refused before them.
    assert.equal(m.get('codebook_limiter_decisions_total{backend="memory",decision="allowed"}'), 4);
    assert.equal(m.get('codebook_redis_fallback_active'), 0, "the registry's own metrics follow");
  } finally {
    await ctx.close();
  }
});

test('/metrics reports the read cache: a record asked for again is a hit, and what the cache holds within its bound', async () => {
  const ctx = await createTestContext();
  try {
    await ctx.importRows(
      [
        { code: 'A', display: 'Alpha' },
        { code: 'B', display: 'Beta' },
      ],
      { system: 'm', release: 'r1', effectiveDate: '2024-01-01' },
    );
    const before = parse((await ctx.app.inject('/metrics')).body);
    for (let i = 0; i < 3; i++) assert.equal((await ctx.get('/v1/codes/m:A')).statusCode, 200);
    assert.equal((await ctx.get('/v1/codes/m:B')).statusCode, 200);
    assert.equal((await ctx.get('/v1/codes/m:Z')).statusCode, 404);
    const m = parse((await ctx.app.inject('/metrics')).body);
    const grew = (name: string) => m.get(name)! - (before.get(name) ?? 0);
    assert.equal(grew('codebook_read_cache_hits_total'), 2, 'm:A the second and third time');
    assert.equal(grew('codebook_read_cache_misses_total'), 3, 'm:A the first time, m:B, and m:Z (not found, not kept)');
    assert.equal(m.get('codebook_read_cache_entries'), 2);
    assert.equal(m.get('codebook_read_cache_evictions_total'), 0);
    assert.equal(m.get('codebook_read_cache_max_bytes'), ctx.deps.config.readCacheBytes);
    const bytes = m.get('codebook_read_cache_bytes')!;
    assert.ok(bytes > 0 && bytes <= ctx.deps.config.readCacheBytes, `${bytes} bytes`);
  } finally {
    await ctx.close();
  }
});
