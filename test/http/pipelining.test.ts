/**
 * HTTP/1.1 pipelining over a real socket: a client that sends many requests
 * at once and reads the answers as they come gets every answer, in order, on
 * one connection; a client that sends request after request and reads none
 * has its connection closed once its unread answers pass MAX_UNREAD_BYTES,
 * instead of the server keeping them all (it went past 1.9 GB with 32 such
 * connections), and the server goes on answering everyone else.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { MAX_UNREAD_BYTES } from '../../src/http/batched-response.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { parseResponses } from '../helpers/raw-http.ts';

let ctx: TestContext;
let port: number;
before(async () => {
  ctx = await createTestContext();
  // 50 codes with long displays: a page of them is ~30 KB.
  const rows = Array.from({ length: 50 }, (_, i) => ({ code: `P${i}`, display: `Pipelined code ${i} ${'word '.repeat(100)}` }));
  await ctx.importRows(rows, { system: 'pipe', release: 'r1', effectiveDate: '2024-01-01' });
  const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(address).port);
});
after(() => ctx.close());

const request = () => `GET /v1/codes?system=pipe&limit=50 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ctx.key}\r\n\r\n`;

test('a client that pipelines 40 requests and reads as they come gets all 40 answers, in order, on one connection', async () => {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (text += chunk));
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(request().repeat(40) + 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  await new Promise((resolve) => socket.once('close', resolve));
  const answers = parseResponses(text, () => false);
  assert.equal(answers.length, 41);
  for (const answer of answers.slice(0, 40)) {
    assert.equal(answer.status, 200);
    assert.equal((JSON.parse(answer.body) as { data: unknown[] }).data.length, 50);
  }
  assert.equal(answers[40]!.body, '{"status":"ok"}');
});

test('a client that pipelines request after request and reads no answer has its connection closed; others are served meanwhile', async () => {
  const socket = connect(port, '127.0.0.1');
  socket.pause(); // reads nothing
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise((resolve) => socket.once('connect', resolve));
  // Sent as fast as the server takes them, until it closes: the kernel's buffers on both sides take some
  // megabytes first. Bounded at twenty times the bound's worth of answers, which the server would keep.
  const batch = request().repeat(100);
  const batches = Math.ceil((20 * MAX_UNREAD_BYTES) / (100 * 30_000));
  let sent = 0;
  let stopped = false;
  void closed.then(() => (stopped = true));
  while (!stopped && sent < batches) {
    sent++;
    if (!socket.write(batch)) await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), closed]);
  }
  // A client that reads nothing sees the close only once it writes or reads again: it reads now.
  let received = 0;
  socket.on('data', (chunk: Buffer) => (received += chunk.length));
  socket.resume();
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  assert.ok(stopped, `the server closed the connection (after ${sent} × 100 requests)`);
  assert.ok(received < sent * 100 * 30_000, `it got part of the answers, not all (${received} bytes)`);
  const res = await fetch(`http://127.0.0.1:${port}/v1/codes?system=pipe&limit=1`, { headers: { authorization: `Bearer ${ctx.key}` } });
  assert.equal(res.status, 200, 'the server answers others');
});
