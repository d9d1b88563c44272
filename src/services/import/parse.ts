/**
 * Reads an import file as a stream of validated rows, handed one at a time to
 * a sink that keeps none of them in memory. Every problem is collected with
 * its line number; reading stops once MAX_ERRORS are, and says so. The
 * caller applies nothing unless the list is empty. Codes that appear twice are found by the stage (stage.ts).
 */
import { createInterface } from 'node:readline';
import { CODE_STATUSES, type AttributeValue, type CodeContent, type CodeStatus } from '../../domain/records.ts';
import { CsvReader, CsvSyntaxError } from './csv.ts';
import { MAX_LINE_BYTES, readText, UnreadableLine, type ByteProgress } from './source.ts';

export type ImportFormat = 'csv' | 'ndjson';

export interface ImportRow extends CodeContent {
  code: string;
  line: number;
}

export interface RowError {
  line: number;
  message: string;
}

/** Receives each valid row as it is read. */
export type RowSink = (row: ImportRow) => void;

const KNOWN = new Set(['code', 'display', 'definition', 'status', 'parents']);
export const MAX_ERRORS = 1000;

/**
 * Problems a check found, at most MAX_ERRORS; more: it stopped there, and more
 * may follow (reading a file: MAX_ERRORS were found before its last row, and
 * the rest was not read).
 */
export interface ListedErrors {
  errors: RowError[];
  more: boolean;
}
const MAX_CODE_LENGTH = 512;
const MAX_DISPLAY_LENGTH = 1_000;
const MAX_DEFINITION_LENGTH = 10_000;
const MAX_ATTRIBUTES = 100;
/** All the text of one row together: records are served whole, so they stay small. */
const MAX_ROW_TEXT = 32 * 1024;
// Control characters other than tab: they cannot be part of a published code.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/**
 * Text holding half of a UTF-16 surrogate pair (a JSON escape such as
 * \ud800 without its partner) is not Unicode: stored as UTF-8 it would turn
 * into U+FFFD in some places and not in others. Only a JSON escape can make
 * one: text decoded from valid UTF-8 (every file passes the byte guard) is
 * always well-formed, so CSV rows and escape-free NDJSON lines skip the check.
 */
function notUnicode(what: string): string {
  return `${what} is not valid Unicode text: it holds an unpaired surrogate (a \\ud800–\\udfff escape without its pair); correct the source file`;
}

/**
 * PostgreSQL cannot store U+0000 in text (SQLite can): a file that holds one
 * must be refused on both, and before either database sees it. Only a NUL
 * byte in a CSV file or a JSON escape can make one (JSON refuses the raw
 * character), so like unpaired surrogates it is looked for only where one may be.
 */
function holdsNul(what: string): string {
  return `${what} contains a NUL character (U+0000), which text cannot hold: remove it from the source file`;
}

const isWellFormed = (text: string) => text.isWellFormed();
const hasNoNul = (text: string) => !text.includes('\u0000');
const always = () => true;

interface RawRow {
  code: unknown;
  display: unknown;
  definition: unknown;
  status: unknown;
  parents: unknown;
  attributes: Record<string, unknown>;
}

/**
 * Validates one raw row; returns the row or pushes errors. `unusualText`: the
 * row may hold an unpaired surrogate or a NUL (an NDJSON line with an escape,
 * a CSV file with a NUL byte), and its texts are checked for them.
 */
function validateRow(raw: RawRow, line: number, errors: RowError[], unusualText = false): ImportRow | null {
  const wellFormed = unusualText ? isWellFormed : always;
  const nulFree = unusualText ? hasNoNul : always;
  const problems: string[] = [];
  const code = typeof raw.code === 'string' ? raw.code : '';
  if (raw.code !== undefined && raw.code !== null && typeof raw.code !== 'string') problems.push('code must be text');
  else if (code === '') problems.push('code is required');
  else if (code !== code.trim()) problems.push('code has leading or trailing spaces');
  else if (code.length > MAX_CODE_LENGTH) problems.push(`code is longer than ${MAX_CODE_LENGTH} characters`);
  else if (CONTROL.test(code)) problems.push('code contains control characters');
  else if (!wellFormed(code)) problems.push(notUnicode('code'));

  const display = typeof raw.display === 'string' ? raw.display.trim() : '';
  if (raw.display !== undefined && raw.display !== null && typeof raw.display !== 'string') problems.push('display must be text');
  else if (display === '') problems.push('display is required');
  else if (display.length > MAX_DISPLAY_LENGTH) problems.push(`display is longer than ${MAX_DISPLAY_LENGTH} characters`);
  else if (!wellFormed(display)) problems.push(notUnicode('display'));
  else if (!nulFree(display)) problems.push(holdsNul('display'));

  let definition: string | null = null;
  if (typeof raw.definition === 'string') definition = raw.definition.trim() === '' ? null : raw.definition;
  else if (raw.definition !== undefined && raw.definition !== null) problems.push('definition must be text');
  if (definition !== null && definition.length > MAX_DEFINITION_LENGTH) problems.push(`definition is longer than ${MAX_DEFINITION_LENGTH} characters`);
  else if (definition !== null && !wellFormed(definition)) problems.push(notUnicode('definition'));
  else if (definition !== null && !nulFree(definition)) problems.push(holdsNul('definition'));

  let status: CodeStatus = 'active';
  if (raw.status !== undefined && raw.status !== null && raw.status !== '') {
    if (typeof raw.status === 'string' && (CODE_STATUSES as readonly string[]).includes(raw.status)) {
      status = raw.status as CodeStatus;
    } else {
      problems.push(`status must be one of ${CODE_STATUSES.join(', ')} (got ${JSON.stringify(raw.status)})`);
    }
  }

  let parents: string[] = [];
  if (typeof raw.parents === 'string')
    parents = raw.parents
      .split(';')
      .map((p) => p.trim())
      .filter((p) => p !== '');
  else if (Array.isArray(raw.parents) && raw.parents.every((p) => typeof p === 'string')) {
    parents = raw.parents.map((p) => p.trim()).filter((p) => p !== '');
  } else if (raw.parents !== undefined && raw.parents !== null) problems.push('parents must be text or an array of codes');
  if (parents.includes(code) && code !== '') problems.push('a code cannot be its own parent');
  if (new Set(parents).size !== parents.length) problems.push('parents lists a code twice');
  if (!parents.every(wellFormed)) problems.push(notUnicode('parents'));
  else if (!parents.every(nulFree)) problems.push(holdsNul('parents'));

  // No prototype: a column named __proto__ or constructor is an attribute like any other.
  const attributes = Object.create(null) as Record<string, AttributeValue>;
  let names = Object.keys(raw.attributes);
  if (names.length > MAX_ATTRIBUTES) {
    problems.push(`more than ${MAX_ATTRIBUTES} attributes (${names.length})`);
    names = [];
  }
  let rowText = code.length + display.length + (definition?.length ?? 0) + parents.join(';').length;
  for (const name of names.sort()) {
    const value = raw.attributes[name];
    if (!wellFormed(name)) {
      problems.push(notUnicode(`attribute name ${JSON.stringify(name)}`));
    } else if (!nulFree(name)) {
      problems.push(holdsNul(`attribute name ${JSON.stringify(name)}`));
    } else if (typeof value === 'string' && !wellFormed(value)) {
      problems.push(notUnicode(`attribute ${name}`));
    } else if (typeof value === 'string' && !nulFree(value)) {
      problems.push(holdsNul(`attribute ${name}`));
    } else if (value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) {
      attributes[name] = value === '' ? null : value;
      rowText += name.length + (typeof value === 'string' ? value.length : 8);
    } else {
      problems.push(`attribute ${name} must be text, a number, true/false or null`);
    }
  }

  if (rowText > MAX_ROW_TEXT) problems.push(`the row holds more than ${MAX_ROW_TEXT} characters of text`);

  for (const message of problems) errors.push({ line, message });
  if (problems.length > 0) return null;
  return { code, line, display: raw.display as string, definition, status, parents, attributes };
}

async function parseCsvFile(file: string, sink: RowSink, onProgress?: ByteProgress): Promise<ListedErrors> {
  const errors: RowError[] = [];
  const source = readText(file, onProgress);
  // A record (a quoted field may span lines) is held to the limit of a line.
  const reader = new CsvReader({ maxRecord: MAX_LINE_BYTES });
  let header: string[] | null = null;
  let headerErrors: RowError[] | null = null;
  /** A chunk so far held a NUL: from then on rows are checked for one (a record may start in an earlier chunk). */
  let nulSeen = false;
  let stopped = false;
  const onRecord = (record: string[], line: number): boolean => {
    // At the next record, not the one that reached the limit: so a file whose last row did is read whole.
    if (errors.length >= MAX_ERRORS) {
      stopped = true;
      return false;
    }
    if (header === null) {
      header = record.map((name) => name.trim());
      // Checked before any row: every row of a file with too many columns would be refused anyway.
      const problems = headerProblems(header);
      if (problems.length > 0) {
        headerErrors = problems.map((message) => ({ line, message }));
        return false;
      }
      return true;
    }
    if (record.length !== header.length) {
      errors.push({ line, message: `expected ${header.length} fields as in the header, found ${record.length}` });
      return true;
    }
    const raw: RawRow = {
      code: undefined,
      display: undefined,
      definition: undefined,
      status: undefined,
      parents: undefined,
      attributes: Object.create(null) as RawRow['attributes'],
    };
    for (let i = 0; i < header.length; i++) {
      const name = header[i]!;
      if (KNOWN.has(name)) (raw as unknown as Record<string, unknown>)[name] = record[i];
      else raw.attributes[name] = record[i];
    }
    const row = validateRow(raw, line, errors, nulSeen);
    if (row) sink(row);
    return true;
  };
  try {
    for await (const chunk of source as AsyncIterable<string>) {
      // One search of each 1 MiB chunk, so that rows are not searched one text at a time.
      nulSeen ||= chunk.includes('\u0000');
      reader.push(chunk, onRecord);
      if (reader.stopped) break;
    }
    reader.end(onRecord);
  } catch (error) {
    errors.push(csvReadError(error));
  } finally {
    source.destroy();
  }
  if (headerErrors !== null) return { errors: headerErrors, more: false };
  if (header === null && errors.length === 0) errors.push({ line: 1, message: 'the file is empty: expected a header line with at least code,display' });
  return { errors, more: stopped };
}

/** What ended the reading of a CSV file early. */
function csvReadError(error: unknown): RowError {
  if (error instanceof UnreadableLine) return { line: error.line, message: error.message };
  if (!(error instanceof CsvSyntaxError)) throw error;
  if (error.tooLong) {
    return {
      line: error.line,
      message: `the record starting here is longer than 1 MiB (${MAX_LINE_BYTES} characters): is a quote left open?`,
    };
  }
  return { line: error.line, message: `not valid CSV: ${error.message}` };
}

function headerProblems(header: string[]): string[] {
  const attributeColumns = header.filter((name) => !KNOWN.has(name)).length;
  if (attributeColumns > MAX_ATTRIBUTES) {
    // Alone and first: the other checks list or compare every column name.
    return [
      `the header has ${header.length} columns, ${attributeColumns} of them attributes: at most ${MAX_ATTRIBUTES} attribute columns are allowed ` +
        `(${MAX_ATTRIBUTES + KNOWN.size} columns with ${[...KNOWN].join(', ')})`,
    ];
  }
  const problems: string[] = [];
  for (const required of ['code', 'display']) {
    if (!header.includes(required)) problems.push(`the header has no ${required} column (columns: ${header.join(', ')})`);
  }
  if (header.some((name) => name === '')) problems.push('the header has an empty column name');
  // Here once, rather than as an attribute name in every row.
  const withNul = header.find((name) => !hasNoNul(name));
  if (withNul !== undefined) problems.push(holdsNul(`the header's column name ${JSON.stringify(withNul)}`));
  const dupes = header.filter((name, i) => header.indexOf(name) !== i);
  if (dupes.length > 0) problems.push(`the header repeats ${[...new Set(dupes)].join(', ')}`);
  return problems;
}

async function parseNdjsonFile(file: string, sink: RowSink, onProgress?: ByteProgress): Promise<ListedErrors> {
  const errors: RowError[] = [];
  const input = readText(file, onProgress);
  const lines = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  let empty = true;
  let stopped = false;
  try {
    for await (const raw of lines) {
      line++;
      const text = line === 1 && raw.startsWith('\uFEFF') ? raw.slice(1) : raw;
      if (text.trim() === '') continue;
      empty = false;
      // Here, not after the line that reached the limit: every kind of problem counts, and a file whose last line did is read whole.
      if (errors.length >= MAX_ERRORS) {
        stopped = true;
        break;
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        errors.push({ line, message: `not valid JSON: ${(error as Error).message}` });
        continue;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        errors.push({ line, message: 'each line must be a JSON object' });
        continue;
      }
      const obj = value as Record<string, unknown>;
      const attributes = Object.create(null) as Record<string, unknown>;
      if (obj.attributes !== undefined) {
        if (typeof obj.attributes !== 'object' || obj.attributes === null || Array.isArray(obj.attributes)) {
          errors.push({ line, message: 'attributes must be an object' });
          continue;
        }
        Object.assign(attributes, obj.attributes);
      }
      for (const [name, v] of Object.entries(obj)) if (!KNOWN.has(name) && name !== 'attributes') attributes[name] = v;
      const fields = { code: obj.code, display: obj.display, definition: obj.definition, status: obj.status, parents: obj.parents, attributes };
      // Only an escape can make an unpaired surrogate or a NUL: JSON refuses a raw control character.
      const row = validateRow(fields, line, errors, text.includes('\\u'));
      if (row) sink(row);
    }
  } catch (error) {
    if (!(error instanceof UnreadableLine)) throw error;
    errors.push({ line: error.line, message: error.message });
  } finally {
    input.destroy();
  }
  // A file with no object is no release: imported, it would record nothing and take the release's name.
  if (empty && errors.length === 0) errors.push({ line: 1, message: 'the file is empty: expected one JSON object per line' });
  return { errors, more: stopped };
}

/** Streams the file's valid rows into sink, in file order; returns the problems found. */
export async function readImportRows(file: string, format: ImportFormat, sink: RowSink, onProgress?: ByteProgress): Promise<ListedErrors> {
  return format === 'csv' ? parseCsvFile(file, sink, onProgress) : parseNdjsonFile(file, sink, onProgress);
}
