import type { CodeRecord } from '../domain/records.ts';
import type { StoredCode } from './store.ts';

/** Reads back the state the importer diffs against from a record's stored JSON. */
export function storedCodeFromJson(json: string): StoredCode {
  const r = JSON.parse(json) as CodeRecord;
  return {
    id: r.id,
    code: r.code,
    display: r.display,
    definition: r.definition,
    status: r.status,
    parents: r.parents,
    attributes: r.attributes,
    effectiveFrom: r.effective_from,
  };
}
