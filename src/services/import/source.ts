/**
 * The text of an import file, checked as its bytes stream past: UTF-8 text in
 * lines of at most 1 MiB. A file that breaks either rule fails at the chunk
 * where it does, before a parser has buffered the bad line whole.
 */
import { isUtf8 } from 'node:buffer';
import { createReadStream, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';

/** Bytes read so far of the whole file, for a progress bar. */
export type ByteProgress = (bytesRead: number, totalBytes: number) => void;

/** No row comes near this (a row holds at most 32 KiB of text): a longer line is a wrong file. */
export const MAX_LINE_BYTES = 1 << 20;

/**
 * Bytes that cannot be read as lines of text; `line` is the line they are on.
 * The message leaves the line out: every row error is printed after it.
 */
export class UnreadableLine extends Error {
  readonly line: number;
  constructor(line: number, message: string) {
    super(message);
    this.name = 'UnreadableLine';
    this.line = line;
  }
}

function notUtf8(line: number): UnreadableLine {
  return new UnreadableLine(line, 'not valid UTF-8 text: save the file as UTF-8');
}

function tooLong(line: number): UnreadableLine {
  return new UnreadableLine(
    line,
    `longer than 1 MiB (${MAX_LINE_BYTES} bytes), and a row holds at most 32 KiB of text: check that this is the right file and format`,
  );
}

const LF = 10;
const CR = 13;

/**
 * The lines of bytes as they stream past, and the length of the one they are
 * in. A line ends at CRLF, LF or a lone CR, each one break: the CSV reader
 * counts lines so (inside a quoted field too), and so does readline for
 * NDJSON, so a file of CR-ended lines is not one long line, and a line
 * number here is the parsers' line number.
 */
class LineCount {
  /** The line the next byte belongs to. */
  line = 1;
  /** Bytes of that line passed so far. */
  private bytes = 0;
  /** The last chunk ended in CR: an LF first in the next one is the rest of that CRLF, not a line of its own. */
  private afterCR = false;

  /** Counts the lines the chunk ends; false as soon as one is longer than MAX_LINE_BYTES (`line` is that one). */
  pass(chunk: Buffer): boolean {
    let start = this.afterCR && chunk[0] === LF ? 1 : 0;
    let lf = chunk.indexOf(LF, start);
    // Searched once per chunk: in a file of LF lines there is none, and the loop goes from LF to LF as before.
    let cr = chunk.indexOf(CR, start);
    while (lf !== -1 || cr !== -1) {
      const end = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      if (this.bytes + (end - start) > MAX_LINE_BYTES) return false;
      this.line++;
      this.bytes = 0;
      start = end + 1;
      if (end === cr) {
        if (chunk[start] === LF) start++;
        cr = chunk.indexOf(CR, start);
      }
      if (lf !== -1 && lf < start) lf = chunk.indexOf(LF, start);
    }
    this.afterCR = chunk[chunk.length - 1] === CR;
    this.bytes += chunk.length - start;
    return this.bytes <= MAX_LINE_BYTES;
  }

  /**
   * The line of the first bad bytes in bytes, which start where the count
   * is: the next chunk, perhaps after the start of a character the last one
   * left unfinished (no line break, so on the count's line). Run only on a
   * file that fails, so a plain loop over the bytes.
   */
  ofBadBytes(bytes: Buffer): number {
    let line = this.line;
    let start = this.afterCR && bytes[0] === LF ? 1 : 0;
    for (let at = start; at < bytes.length; at++) {
      const byte = bytes[at];
      if (byte !== LF && byte !== CR) continue;
      if (!isUtf8(bytes.subarray(start, at))) return line;
      line++;
      if (byte === CR && bytes[at + 1] === LF) at++;
      start = at + 1;
    }
    return line;
  }
}

const NO_BYTES = Buffer.alloc(0);

/** The last bytes of chunk if they begin a character it does not finish (at most 3), copied; else none. */
function unfinishedCharacter(chunk: Buffer): Buffer {
  for (let back = 1; back <= 3 && back <= chunk.length; back++) {
    const byte = chunk[chunk.length - back]!;
    if (byte < 0x80) return NO_BYTES;
    // A continuation byte (10xxxxxx): its character began further back.
    if (byte < 0xc0) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    return length > back ? Buffer.from(chunk.subarray(chunk.length - back)) : NO_BYTES;
  }
  return NO_BYTES;
}

/**
 * Turns the bytes into text and fails at the first one that is not UTF-8
 * (decoding with replacement would import U+FFFD in place of the bad bytes),
 * or at the first line longer than MAX_LINE_BYTES, as soon as it is. The text
 * is the check's own decoding: decoding the bytes a second time for the
 * parser cost reading a file ~3 % of its time.
 */
function textGuard(): Transform {
  // ignoreBOM: a byte order mark is the parsers' to drop (one, at the start), as it was when they decoded the bytes.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const lines = new LineCount();
  let unfinished: Buffer = NO_BYTES;
  return new Transform({
    // Strings out, a few 1 MiB chunks of them at most.
    readableObjectMode: true,
    readableHighWaterMark: 2,
    transform(chunk: Buffer, _encoding, done) {
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        // The decoder held the bytes of a character the last chunk did not finish: they may be the bad ones.
        done(notUtf8(lines.ofBadBytes(Buffer.concat([unfinished, chunk]))));
        return;
      }
      unfinished = unfinishedCharacter(chunk);
      if (!lines.pass(chunk)) {
        done(tooLong(lines.line));
        return;
      }
      done(null, text === '' ? undefined : text);
    },
    flush(done) {
      try {
        const rest = decoder.decode();
        done(null, rest === '' ? undefined : rest);
      } catch {
        done(notUtf8(lines.line));
      }
    },
  });
}

/** The file's text, through the text guard, in string chunks; errors of the file itself come out of the same stream. */
export function readText(file: string, onProgress?: ByteProgress): Readable {
  const total = statSync(file).size;
  const stream = createReadStream(file, { highWaterMark: 1 << 20 });
  let read = 0;
  if (onProgress) {
    stream.on('data', (chunk) => {
      read += chunk.length;
      onProgress(read, total);
    });
  }
  const guarded = textGuard();
  stream.on('error', (error) => guarded.destroy(error));
  return stream.pipe(guarded);
}
