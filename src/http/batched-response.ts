/**
 * Responses written at the end of the event loop's turn, together: the server's
 * response class (httpServerOptions in front-door.ts), so every answer takes
 * this path, Fastify's and the express lane's alike.
 *
 * end() does not write: it queues the response, and the first response queued
 * in a turn schedules one setImmediate, which runs once the poll phase has read
 * every socket that was ready, and writes them all, in the order they ended.
 * Each is still one write of its own, headers and body together.
 *
 * Why: a response written at once wakes a client that is waiting for it, and
 * each wake-up is the kernel's work on the server's core (on a 2-core machine
 * with the load generator beside the server, the wake-up alone was 14 % of the
 * main thread: bench/HISTORY.md, "the express lane"). Written back to back, the
 * first write wakes the client and the others find it awake; the client then
 * sends its next requests together, and the next turn reads them together.
 * Measured with the server and a client on one machine: 1.3× the rate for a
 * record, 1.65× for a first page, 1.45× for the 401 of an unknown key, with
 * lower p50 and p99; at one connection a response waits one turn's end, a few
 * microseconds (bench/HISTORY.md, "answers at the end of the turn").
 *
 * What the caller sees is unchanged: writableEnded is true from end() on (so
 * Fastify knows the reply was sent), 'finish' and 'close' come when the bytes
 * were written or the client left, and a response whose client left before the
 * turn's end writes nothing. Two things differ for a caller's mistakes only
 * (nothing in this service makes them): a write() or setHeader() after end()
 * goes into the answer instead of failing, and what end() would have thrown is
 * met at the turn's end, where the response is destroyed. A request the parser
 * refuses behind others on the same connection is answered after their answers
 * (clientErrorHandler in error-handler.ts).
 *
 * A connection whose client pipelines requests and leaves their answers
 * unread is closed once those pass MAX_UNREAD_BYTES (below).
 *
 * Whatever a body is written from must stay as it is until the response
 * closes, which was already so: a socket keeps what it could not write at once
 * (body-buffers.ts reuses a body's buffer only on 'close').
 */
import { OutgoingMessage, ServerResponse, type IncomingMessage } from 'node:http';

/** What end() was called with: (callback?), (chunk, callback?) or (chunk, encoding, callback?). */
type EndArguments = unknown[];

/** The responses ended in this turn, with what end() was called with. */
const queue: [BatchedResponse, EndArguments][] = [];

function writeQueued(): void {
  // Answers ended while these are written (a 'finish' listener's, say) wait for the next turn.
  for (const [response, args] of queue.splice(0)) {
    try {
      response.writeNow(args);
    } catch {
      // What end() would have thrown at its caller (nothing does, for the answers this service makes):
      // the client must not wait for an answer that cannot come.
      response.destroy();
    }
  }
}

export class BatchedResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  #ended = false;

  static {
    // writableEnded is true from end() on, as for any response (Fastify reads it to know a reply was sent):
    // the write itself comes at the end of the turn. Node's own getter answers once it is written.
    Object.defineProperty(this.prototype, 'writableEnded', {
      configurable: true,
      get(this: BatchedResponse): boolean {
        return this.#ended || Reflect.get(OutgoingMessage.prototype, 'writableEnded', this) === true;
      },
    });
  }

  override end(callback?: () => void): this;
  override end(chunk: unknown, callback?: () => void): this;
  override end(chunk: unknown, encoding: BufferEncoding, callback?: () => void): this;
  override end(...args: EndArguments): this {
    this.#ended = true;
    // A second end() is queued too, behind the first: Node then answers it as it answers any end after the end.
    if (queue.push([this, args]) === 1) setImmediate(writeQueued);
    return this;
  }

  /** Writes what end() was called with, unless its client has left too much unread (see MAX_UNREAD_BYTES). */
  writeNow(args: EndArguments): void {
    const socket = this.req.socket;
    const body = args[0];
    const size = ANSWER_OVERHEAD + (typeof body === 'string' || body instanceof Uint8Array ? body.length : 0);
    const before = unread.get(socket) ?? 0;
    const waiting = before + size;
    // The first answer waiting always goes out, however large (a batch of large records may pass the bound alone).
    if (before > 0 && waiting > MAX_UNREAD_BYTES) {
      // A client that sends request after request and reads none of the answers would have the server
      // keep them all (~50 MB a connection for 17 KB pages, before Node stops reading it): closed instead.
      socket.destroy();
      return;
    }
    unread.set(socket, waiting);
    this.answerSize = size;
    this.on('finish', settled);
    super.end(...(args as [unknown, BufferEncoding, () => void]));
  }

  /** What writeNow counted of this answer in its connection's unread bytes. */
  answerSize = 0;
}

/**
 * How many bytes of answers a connection may hold that its client has not
 * taken (written, not yet handed to the kernel whole): a client that waits
 * for each answer before it sends the next request holds one; one that
 * pipelines a few requests and reads as it goes, a few. Past this (beyond its
 * first answer), the client pipelines far more than it reads, and the
 * connection is closed: a server may close a connection at any time, and a
 * client retries the requests it got no answer to. Without it, 32 connections
 * that pipelined 50-code pages and read nothing took the server to 1.9 GB in
 * 12 s and growing; with it they are closed within 3 s, the server at ~330 MB
 * (bench/HISTORY.md, 2026-12-08).
 */
export const MAX_UNREAD_BYTES = 8 * 1024 * 1024;
/** What an answer costs beyond its body while it waits: its head, and the response object itself. */
const ANSWER_OVERHEAD = 2048;

/** Per connection, the bytes of its answers not yet taken (MAX_UNREAD_BYTES). */
const unread = new WeakMap<object, number>();

function settled(this: BatchedResponse): void {
  const socket = this.req.socket;
  unread.set(socket, (unread.get(socket) ?? this.answerSize) - this.answerSize);
}
