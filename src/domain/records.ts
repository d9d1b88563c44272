/** The public shapes of the two resources, as the design fixes them. */

export const CODE_STATUSES = ['active', 'deprecated', 'retired'] as const;
export type CodeStatus = (typeof CODE_STATUSES)[number];

export const CHANGE_TYPES = ['added', 'revised', 'retired', 'reactivated'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

export type AttributeValue = string | number | boolean | null;

/** The fields of a code that an import sets; everything else is derived. */
export interface CodeContent {
  display: string;
  definition: string | null;
  status: CodeStatus;
  parents: string[];
  attributes: Record<string, AttributeValue>;
}

export const CONTENT_FIELDS = ['display', 'definition', 'status', 'parents', 'attributes'] as const;
export type ContentField = (typeof CONTENT_FIELDS)[number];

export interface CodeRecord extends CodeContent {
  object: 'code';
  id: string;
  system: string;
  code: string;
  release: string;
  effective_from: string;
  updated_at: string;
}

export interface ChangeRecord {
  object: 'change';
  id: number;
  code_id: string;
  type: ChangeType;
  effective_date: string;
  release: string;
  fields: ContentField[];
  before: Partial<CodeContent> | null;
  after: Partial<CodeContent> | null;
  recorded_at: string;
}

export const SYSTEM_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export function codeId(system: string, code: string): string {
  return `${system}:${code}`;
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date in YYYY-MM-DD form. */
export function isIsoDate(text: string): boolean {
  const m = DATE_PATTERN.exec(text);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === text;
}
