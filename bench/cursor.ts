/**
 * `npx node bench/cursor.ts [--rounds N]`: what signing and checking a cursor
 * costs, per operation, for the ways of computing the same HMAC-SHA256:
 *
 * - createHmac: a new Hmac object per MAC, keyed with a KeyObject made once
 *   (what src/http/cursor.ts did before);
 * - hash-copy: the inner and outer SHA-256 states keyed once, copied per MAC;
 * - one-shot: RFC 2104 over crypto.hash() — two one-shot hashes of the padded
 *   key blocks made once and the message, no object per MAC;
 * - and the codec itself (src/http/cursor.ts): encode, and decode of a valid
 *   cursor, with the key and the sort key of a 50-code page.
 *
 * Every way must give the same bytes, or the run fails. The machine is shared:
 * the time is this process's CPU time (not the wall clock, which counts the
 * time other processes ran), the candidates run in alternation, many rounds,
 * and the minimum and median per operation are reported.
 */
import { createHash, createHmac, createSecretKey, hash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createCursorCodec } from '../src/http/cursor.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '15' }, batch: { type: 'string', default: '50000' } } });
const ROUNDS = Number(values.rounds);
const BATCH = Number(values.batch);
const SECRET = 'bench-cursor-secret-of-forty-three-chars-x';
const PAYLOAD = Buffer.from(JSON.stringify([1, 'codes', 'status=active&system=icd10cm', 'icd10cm:S72.001A']), 'utf8');

const key = createSecretKey(Buffer.from(SECRET, 'utf8'));
const viaCreateHmac = () => createHmac('sha256', key).update(PAYLOAD).digest();

const block = Buffer.alloc(64);
Buffer.from(SECRET, 'utf8').copy(block);
const ipad = Buffer.from(block.map((b) => b ^ 0x36));
const opad = Buffer.from(block.map((b) => b ^ 0x5c));
const inner = createHash('sha256').update(ipad);
const outer = createHash('sha256').update(opad);
const viaHashCopy = () => outer.copy().update(inner.copy().update(PAYLOAD).digest()).digest();

const innerInput = Buffer.alloc(64 + 1024);
ipad.copy(innerInput);
const outerInput = Buffer.alloc(64 + 32);
opad.copy(outerInput);
const viaOneShot = () => {
  const n = PAYLOAD.copy(innerInput, 64);
  outerInput.write(hash('sha256', innerInput.subarray(0, 64 + n), 'hex'), 64, 'hex');
  return Buffer.from(hash('sha256', outerInput, 'hex'), 'hex');
};

const codec = createCursorCodec(SECRET);
const SORT_KEY = ['icd10cm:S72.001A'];
const cursor = codec.encode('codes', 'status=active&system=icd10cm', SORT_KEY);
const encode = () => codec.encode('codes', 'status=active&system=icd10cm', SORT_KEY);
const decode = () => codec.decode(cursor, 'codes', 'status=active&system=icd10cm');

const reference = viaCreateHmac();
for (const [name, f] of [
  ['hash-copy', viaHashCopy],
  ['one-shot', viaOneShot],
] as const) {
  if (!f().equals(reference)) throw new Error(`${name} does not compute HMAC-SHA256`);
}
if (codec.decode(cursor, 'codes', 'status=active&system=icd10cm')[0] !== SORT_KEY[0]) throw new Error('the codec does not round-trip');

const candidates: [string, () => unknown][] = [
  ['MAC: createHmac (KeyObject)', viaCreateHmac],
  ['MAC: hash-copy (keyed states)', viaHashCopy],
  ['MAC: one-shot (RFC 2104, crypto.hash)', viaOneShot],
  ['codec: encode', encode],
  ['codec: decode (valid)', decode],
];
const times = new Map<string, number[]>(candidates.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, f] of candidates) {
    const started = process.cpuUsage();
    for (let i = 0; i < BATCH; i++) f();
    const used = process.cpuUsage(started);
    times.get(name)!.push((used.user + used.system) / BATCH);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const width = Math.max(...candidates.map(([name]) => name.length));
process.stdout.write(`Node.js ${process.version}, ${ROUNDS} rounds of ${BATCH}, µs of CPU per operation\n`);
process.stdout.write(`${'operation'.padEnd(width)}    min  median\n`);
for (const [name] of candidates) {
  const xs = times.get(name)!;
  process.stdout.write(
    `${name.padEnd(width)}  ${Math.min(...xs)
      .toFixed(2)
      .padStart(5)}  ${median(xs).toFixed(2).padStart(6)}\n`,
  );
}
