import { CODE_STATUSES, type AttributeValue, type CodeStatus } from '../domain/records.ts';
import type { StoredCode } from './store.ts';

/** A stored record the importer cannot diff against: its JSON is not a code record. */
export class DamagedRecordError extends Error {
  readonly id: string;
  constructor(id: string, reason: string) {
    super(`the stored record ${id} is damaged (${reason})`);
    this.name = 'DamagedRecordError';
    this.id = id;
  }
}

/**
 * Reads back the state the importer diffs against from a record's stored
 * JSON. `id` is the row's key, which every write of the code goes to, so it
 * wins over the id inside the JSON. Text is made well-formed on the way in:
 * records written before unpaired surrogates were refused hold them as JSON
 * escapes, where the row's key holds U+FFFD instead.
 */
export function storedCodeFromRow(id: string, json: string): StoredCode {
  let r: Record<string, unknown>;
  try {
    r = JSON.parse(json) as Record<string, unknown>;
  } catch (error) {
    throw new DamagedRecordError(id, `its JSON does not parse: ${(error as Error).message}`);
  }
  const damaged = (field: string) => new DamagedRecordError(id, `its ${field} is missing or of the wrong type`);
  if (typeof r !== 'object' || r === null || Array.isArray(r)) throw new DamagedRecordError(id, 'its JSON is not an object');
  if (typeof r.display !== 'string') throw damaged('display');
  if (r.definition !== null && typeof r.definition !== 'string') throw damaged('definition');
  if (!(CODE_STATUSES as readonly unknown[]).includes(r.status)) throw damaged('status');
  if (!Array.isArray(r.parents) || !r.parents.every((p) => typeof p === 'string')) throw damaged('parents');
  if (typeof r.attributes !== 'object' || r.attributes === null || Array.isArray(r.attributes)) throw damaged('attributes');
  if (typeof r.effective_from !== 'string') throw damaged('effective_from');
  if (typeof r.release !== 'string') throw damaged('release');
  let wellFormed = r.id === id;
  const text = (s: string) => {
    if (s.isWellFormed()) return s;
    wellFormed = false;
    return s.toWellFormed();
  };
  const entries = Object.entries(r.attributes as Record<string, unknown>).map(([name, value]): [string, AttributeValue] => {
    if (value !== null && typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw damaged(`attribute ${name}`);
    return [text(name), typeof value === 'string' ? text(value) : value];
  });
  // fromEntries defines own properties: an attribute named __proto__ stays an attribute.
  const attributes = Object.fromEntries(entries);
  const content = {
    code: typeof r.code === 'string' ? text(r.code) : '',
    display: text(r.display),
    definition: typeof r.definition === 'string' ? text(r.definition) : null,
    status: r.status as CodeStatus,
    parents: r.parents.map(text),
  };
  return { id, ...content, attributes, effectiveFrom: r.effective_from, release: r.release, wellFormed };
}

/** The code of a stored row's id; a row filed under a system must have an id that says so. */
export function codeOfStoredId(id: string, system: string): string {
  if (!id.startsWith(`${system}:`)) throw new DamagedRecordError(id, `it is filed under system ${system}, but its id does not start with "${system}:"`);
  return id.slice(system.length + 1);
}
