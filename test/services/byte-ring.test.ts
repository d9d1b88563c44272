/**
 * The ring the read cache and the compressed cache keep their bytes in: what
 * it returns is exactly what was put under that key, however the ring has
 * wrapped and whatever was read; it stays within its bound; an entry read
 * since it was kept outlives those that were not; and once full, a key gets
 * in on its second request, so a record asked for again and again is served
 * from the cache from then on.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ByteRing, ENTRY_OVERHEAD, INDEX_SHARE, KEY_CHARS_COUNTED } from '../../src/services/byte-ring.ts';
import { Doorkeeper } from '../../src/services/doorkeeper.ts';
import { READ_CACHE_INDEX_SHARE, ReadCache } from '../../src/services/read-cache.ts';

test('whatever it holds reads back exactly as written, within the bound, however it wraps and whatever was read', () => {
  // Bound by the buffer (entries of up to 4 000 bytes) and by the index (a quarter of 16 KiB: 20 entries); keys
  // enough that an entry read is often still there, unread since, when its turn to go comes.
  for (const { maxBytes, indexShare, maxSize, keys } of [
    { maxBytes: 64 * 1024, indexShare: INDEX_SHARE, maxSize: 4000, keys: 100 },
    { maxBytes: 16 * 1024, indexShare: 1 / 4, maxSize: 300, keys: 60 },
  ]) {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('set', 'set', 'set', 'set', 'read', 'read', 'read', 'read', 'delete', 'delete', 'clear'),
            fc.integer({ min: 0, max: keys }),
            fc.integer({ min: 0, max: maxSize }),
            fc.integer({ min: 0, max: 255 }),
          ),
          { minLength: 200, maxLength: 600 },
        ),
        (ops) => {
          const ring = new ByteRing({ maxBytes, indexShare });
          const maxEntries = Math.floor((maxBytes * indexShare) / ENTRY_OVERHEAD);
          const written = new Map<string, string | Buffer>();
          const readBack = (key: string) => {
            const expected = written.get(key)!;
            const found = typeof expected === 'string' ? ring.text(key)?.text : ring.copy(key)?.bytes;
            // Evicted, or exactly what was written.
            if (found !== undefined) assert.deepEqual(found, expected, `${key} reads back what was written`);
          };
          for (const [op, k, size, fill] of ops) {
            const key = `k${k}`;
            if (op === 'delete') {
              ring.delete(key);
              written.delete(key);
              assert.equal(ring.has(key), false);
            } else if (op === 'clear') {
              ring.clear();
              written.clear();
              assert.equal(ring.size, 0);
            } else if (op === 'read') {
              if (written.has(key)) readBack(key);
            } else {
              // Bytes, or text of one, two or three bytes a character (written another way): a text may be short
              // enough in characters for the ring and too long in bytes.
              const value = fill % 2 === 0 ? Buffer.alloc(size, fill) : ['a', 'é', '漢'][fill % 3]!.repeat(size);
              const fits = Buffer.byteLength(value) <= ring.capacity / 8;
              assert.equal(ring.set(key, value, undefined), fits);
              if (fits) written.set(key, value);
              else written.delete(key);
              assert.equal(ring.has(key), fits, 'the last one written is there, if it fits');
            }
            assert.ok(ring.bytes <= maxBytes, `${ring.bytes} > ${maxBytes}`);
            assert.ok(ring.size <= maxEntries, `${ring.size} entries > ${maxEntries}`);
            assert.ok(ring.orderLength <= 2 * maxEntries + 2048, `the order holds ${ring.orderLength}`);
          }
          for (const key of written.keys()) readBack(key);
        },
      ),
      { numRuns: 100 },
    );
  }
});

test('the order stays bounded however entries are set again or deleted, evicted or not', () => {
  const ring = new ByteRing({ maxBytes: 1024 * 1024 });
  for (let i = 0; i < 100_000; i++) ring.set('one', i % 2 === 0 ? `text ${i}` : '', undefined);
  assert.ok(ring.orderLength <= 2048, `one key set again and again: ${ring.orderLength}`);
  for (let i = 0; i < 100_000; i++) {
    ring.set('gone', 'x', undefined);
    ring.delete('gone');
  }
  assert.ok(ring.orderLength <= 2048, `set then deleted: ${ring.orderLength}`);
  for (let i = 0; i < 100_000; i++) ring.set(`k${i % 50}`, `text ${i}`, undefined);
  assert.ok(ring.orderLength <= 2048, `50 keys set in turn: ${ring.orderLength}`);
  assert.equal(ring.text('k49')?.text, 'text 99999');
});

test('first in, first out: the oldest entries make room', () => {
  const ring = new ByteRing({ maxBytes: 64 * 1024 });
  const size = Math.floor(ring.capacity / 8);
  for (let i = 0; i < 8; i++) ring.set(`k${i}`, Buffer.alloc(size, i), undefined);
  assert.equal(ring.size, 8);
  ring.set('k8', Buffer.alloc(size, 8), undefined);
  assert.equal(ring.has('k0'), false, 'the oldest went');
  assert.equal(ring.has('k1'), true);
  assert.equal(ring.evictions, 1);
});

test('an entry read since it was kept gets a second chance: it outlives the entries kept after it that were not read', () => {
  const ring = new ByteRing({ maxBytes: 64 * 1024 });
  const size = Math.floor(ring.capacity / 8);
  for (let i = 0; i < 8; i++) ring.set(`k${i}`, Buffer.alloc(size, i), undefined);
  assert.deepEqual(ring.copy('k0')?.bytes, Buffer.alloc(size, 0));
  ring.set('k8', Buffer.alloc(size, 8), undefined);
  assert.equal(ring.has('k0'), true, 'read: kept, as the newest but one');
  assert.equal(ring.has('k1'), false, 'the oldest not read went in its place');
  assert.deepEqual(ring.copy('k0')?.bytes, Buffer.alloc(size, 0), 'its bytes moved with it');
  // Its chance is used up once it has moved: not read again, it goes in its turn.
  for (let i = 9; i < 16; i++) ring.set(`k${i}`, Buffer.alloc(size, i), undefined);
  assert.equal(ring.has('k0'), true, 'read again above, so kept again');
  for (let i = 16; i < 24; i++) ring.set(`k${i}`, Buffer.alloc(size, i), undefined);
  assert.equal(ring.has('k0'), false);
  assert.equal(ring.size, 8);
});

test('a view is the entry’s bytes in place, read like a copy: the same second chance', () => {
  const ring = new ByteRing<string | undefined>({ maxBytes: 64 * 1024 });
  const size = Math.floor(ring.capacity / 8);
  for (let i = 0; i < 8; i++) ring.set(`k${i}`, Buffer.alloc(size, i), `meta ${i}`);
  const view = ring.view('k0')!;
  assert.deepEqual(view.bytes, Buffer.alloc(size, 0));
  assert.equal(view.meta, 'meta 0');
  assert.equal(view.bytes.buffer, ring.view('k1')!.bytes.buffer, 'not copied: both in the ring’s one buffer');
  assert.notEqual(ring.copy('k2')!.bytes.buffer, view.bytes.buffer, 'a copy has a buffer of its own');
  assert.equal(ring.view('nope'), undefined);
  ring.set('k8', Buffer.alloc(size, 8), undefined);
  assert.equal(ring.has('k0'), true, 'viewed: kept');
  assert.equal(ring.has('k1'), true, 'viewed: kept');
  assert.equal(ring.has('k2'), true, 'copied: kept');
  assert.equal(ring.has('k3'), false, 'the oldest not read went in its place');
});

test('text written straight into the ring gives the same second chance', () => {
  const ring = new ByteRing({ maxBytes: 64 * 1024 });
  const size = Math.floor(ring.capacity / 32);
  const text = (i: number) => String.fromCharCode(97 + (i % 26)).repeat(size);
  for (let i = 0; i < 32; i++) ring.set(`k${i}`, text(i), undefined);
  assert.equal(ring.text('k1')?.text, text(1));
  ring.set('k32', text(32), undefined); // wraps: k0 goes
  ring.set('k33', text(33), undefined); // room at the head for three bytes a character, k1 in it
  assert.equal(ring.has('k0'), false);
  assert.equal(ring.text('k1')?.text, text(1), 'read: kept');
  assert.equal(ring.has('k2'), false, 'the oldest not read went in its place');
  assert.equal(ring.text('k33')?.text, text(33));
});

test('text of several bytes a character is not written over an entry read since it was kept', () => {
  const ring = new ByteRing({ maxBytes: 64 * 1024 });
  const chars = Math.floor(ring.capacity / 32 / 3);
  const text = (i: number) => String.fromCharCode(0x6f22 + i).repeat(chars); // three bytes a character
  for (let i = 0; i < 32; i++) ring.set(`k${i}`, text(i), undefined);
  assert.equal(ring.text('k2')?.text, text(2));
  ring.set('k32', text(32), undefined); // wraps: k0 goes
  // One character longer than k1 in characters, three bytes longer in bytes: it lands on k2 as well.
  ring.set('k33', text(33) + '漢', undefined);
  assert.equal(ring.has('k1'), false);
  assert.equal(ring.text('k2')?.text, text(2), 'read: kept');
  assert.equal(ring.text('k33')?.text, text(33) + '漢');
});

test('an entry given its second chance after a gap moves down with its bytes', () => {
  const ring = new ByteRing({ maxBytes: 64 * 1024 });
  const size = Math.floor(ring.capacity / 8) - 16;
  for (let i = 0; i < 8; i++) ring.set(`k${i}`, Buffer.alloc(size, i), undefined);
  ring.delete('k0');
  ring.copy('k1');
  // One byte longer than the gap k0 left: k1 is in its way, moves down to the start of the buffer, and k8 follows it.
  ring.set('k8', Buffer.alloc(size + 1, 8), undefined);
  assert.deepEqual(ring.copy('k1')?.bytes, Buffer.alloc(size, 1));
  assert.deepEqual(ring.copy('k8')?.bytes, Buffer.alloc(size + 1, 8));
  assert.equal(ring.has('k2'), false);
  assert.deepEqual(ring.copy('k3')?.bytes, Buffer.alloc(size, 3));
});

test('the index bound gives the same second chance: a record read since it was kept stays while unread ones go', () => {
  const ring = new ByteRing({ maxBytes: 16 * 1024, indexShare: 1 / 4 });
  const max = Math.floor((16 * 1024) / 4 / ENTRY_OVERHEAD);
  for (let i = 0; i < max; i++) ring.set(`r${i}`, `{"id":${i}}`, undefined);
  for (let i = 0; i < 3; i++) assert.equal(ring.text(`r${i}`)?.text, `{"id":${i}}`);
  for (let i = max; i < max + 3; i++) ring.set(`r${i}`, `{"id":${i}}`, undefined);
  assert.equal(ring.size, max);
  for (let i = 0; i < 3; i++) assert.equal(ring.text(`r${i}`)?.text, `{"id":${i}}`, `r${i} kept`);
  for (let i = 3; i < 6; i++) assert.equal(ring.has(`r${i}`), false, `r${i} went`);
});

test('text comes back as the same text, any character (UTF-8 inside)', () => {
  const ring = new ByteRing<{ n: number }>({ maxBytes: 64 * 1024 });
  const text = '{"display":"Ünïcödé — 漢字 𝄞 \\u0000 ok"}';
  ring.set('t', text, { n: 1 });
  assert.deepEqual(ring.text('t'), { text, meta: { n: 1 } });
  assert.deepEqual(ring.copy('t')?.bytes, Buffer.from(text));
});

test('nothing larger than an eighth of the buffer, nothing at all with a bound of 0', () => {
  const ring = new ByteRing({ maxBytes: 64 * 1024 });
  assert.equal(ring.set('big', Buffer.alloc(ring.capacity / 8 + 1), undefined), false);
  assert.equal(ring.size, 0);
  const none = new ByteRing({ maxBytes: 0 });
  assert.equal(none.set('t', 'x', undefined), false);
  assert.equal(none.bytes, 0);
});

test('the index is bounded too: at most its share of the bound at ENTRY_OVERHEAD an entry, the buffer the rest', () => {
  const maxBytes = 64 * 1024;
  for (const share of [INDEX_SHARE, 1 / 4]) {
    const ring = new ByteRing({ maxBytes, indexShare: share });
    for (let i = 0; i < 1000; i++) ring.set(`k${i}`, 'x', undefined);
    assert.equal(ring.size, Math.floor((maxBytes * share) / ENTRY_OVERHEAD));
    // Entries as large as the index lets them be, then larger: buffer and index never hold more than the bound.
    for (let i = 0; i < 1000; i++) {
      ring.set(`b${i}`, Buffer.alloc(((i % 7) + 1) * 64), undefined);
      assert.ok(ring.capacity + ring.size * ENTRY_OVERHEAD <= maxBytes, `share ${share}, ${ring.size} entries`);
      assert.ok(ring.bytes <= maxBytes);
    }
  }
});

test('long keys count against the index’s share: fewer entries, within the bound', () => {
  const maxBytes = 256 * 1024;
  const short = new ByteRing({ maxBytes });
  const long = new ByteRing({ maxBytes });
  const url = (i: number) => `/v1/codes?limit=1&cursor=${'c'.repeat(480)}${i}`;
  for (let i = 0; i < 5_000; i++) {
    short.set(`k${i}`, Buffer.alloc(10, 1), undefined);
    assert.equal(long.set(url(i), Buffer.alloc(10, 1), undefined), true);
  }
  const index = maxBytes * INDEX_SHARE;
  assert.equal(short.size, Math.floor(index / ENTRY_OVERHEAD));
  const perLongEntry = ENTRY_OVERHEAD + url(0).length - KEY_CHARS_COUNTED;
  assert.ok(long.size <= Math.floor(index / perLongEntry) && long.size >= Math.floor(index / perLongEntry) - 1, `${long.size} entries`);
  assert.ok(long.bytes <= maxBytes, `${long.bytes} bytes counted, bound ${maxBytes}`);
  // Each counted at its key's length (the newest keys have 4 digits where url(0) has 1).
  assert.ok(long.bytes >= long.size * (perLongEntry + 10) && long.bytes <= long.size * (perLongEntry + 3 + 10), `${long.bytes} bytes counted`);
  assert.equal(long.copy(url(4_999))?.bytes.length, 10, 'the newest kept');
  // Deleted, and set again under the same key: counted once, then not at all.
  const held = long.bytes;
  long.delete(url(4_999));
  assert.equal(long.bytes, held - (ENTRY_OVERHEAD + url(4_999).length - KEY_CHARS_COUNTED + 10));
  long.set(url(4_998), Buffer.alloc(20, 1), undefined);
  assert.equal(long.bytes, held - (ENTRY_OVERHEAD + url(4_999).length - KEY_CHARS_COUNTED + 10) + 10);
  // A key that alone would take more than an eighth of the index is not kept, nor is a value too large, and neither evicts.
  const size = long.size;
  assert.equal(long.set('k'.repeat(index), Buffer.alloc(10, 1), undefined), false);
  assert.equal(long.set('small', Buffer.alloc(long.capacity), undefined), false);
  assert.equal(long.size, size);
  long.clear();
  assert.equal(long.bytes, 0);
});

test('the doorkeeper lets a key in on its second sight and forgets it then', () => {
  const door = new Doorkeeper(1024);
  assert.equal(door.secondSight('a'), false);
  assert.equal(door.secondSight('b'), false);
  assert.equal(door.secondSight('a'), true);
  assert.equal(door.secondSight('a'), false, 'a third sight starts over');
});

test('a full read cache turns away a record asked for once, keeps one asked for again: a hit from the third request on', () => {
  const cache = new ReadCache(64 * 1024, () => 1);
  const read = (id: string): string => {
    const version = cache.open();
    const found = cache.get(id);
    if (found !== undefined) return found.text;
    const text = `{"id":"${id}","display":"${'x'.repeat(500)}"}`;
    cache.set(id, text, undefined, version);
    return text;
  };
  // Until it first evicts, everything gets in.
  for (let i = 0; i < 200; i++) read(`fill${i}`);
  assert.ok(cache.stats().evictions > 0, 'full');
  // A stream of records asked for once each no longer rewrites it.
  const before = cache.stats();
  for (let i = 0; i < 1000; i++) read(`once${i}`);
  assert.equal(cache.stats().evictions, before.evictions, 'nothing evicted for records asked for once');
  // A record asked for again is kept on its second request and served from the cache after.
  read('hot');
  read('hot');
  const hits = cache.stats().hits;
  for (let i = 0; i < 5; i++) assert.match(read('hot'), /"id":"hot"/);
  assert.equal(cache.stats().hits, hits + 5);
});

test('the cache is exact across versions: a version change drops it, a read under an older version is not kept', () => {
  let version = 1;
  const cache = new ReadCache(64 * 1024, () => version);
  const v = cache.open();
  cache.set('a', 'old', undefined, v);
  assert.equal(cache.get('a')?.text, 'old');
  version = 2;
  cache.open();
  assert.equal(cache.get('a'), undefined, 'dropped when the version moved');
  cache.set('a', 'read under 1', undefined, v);
  assert.equal(cache.get('a'), undefined, 'a read begun under the old version is not kept');
});

test('the read cache at its default bound holds ~27 000 records of 450 bytes, within the bound', () => {
  const maxBytes = 24 * 1024 * 1024;
  const cache = new ReadCache(maxBytes, () => 1);
  const v = cache.open();
  const record = `{"object":"code","display":"${'x'.repeat(420)}"}`;
  // Once full the doorkeeper lets a record in on its second sight only: these are seen once, so the ring stops at full.
  for (let i = 0; i < 50_000; i++) cache.set(`dx:${i}`, record, undefined, v);
  const { entries, bytes } = cache.stats();
  // An index of an eighth of the bound capped it at 19 660 records (at 160 B an entry), with 12 MB of the buffer never used.
  assert.equal(entries, Math.floor((maxBytes * READ_CACHE_INDEX_SHARE) / ENTRY_OVERHEAD));
  assert.ok(entries > 27_000, `${entries} records`);
  assert.ok(bytes <= maxBytes);
  assert.equal(cache.get(`dx:${entries}`)?.text, record, 'the last one let in');
  assert.equal(cache.get(`dx:${entries + 1000}`), undefined, 'past the cap');
});
