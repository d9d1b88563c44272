/** TypeBox schemas of the navigation endpoints: hierarchy, as_of and the batch lookup. */
import { Type } from 'typebox';
import { CODE_STATUSES } from '../domain/records.ts';
import { BATCH_ID_MAX_LENGTH, BATCH_MAX_IDS } from '../services/navigation.ts';
import { CodeRecord, Cursor, Limit } from './schemas.ts';

export const AsOf = Type.String({
  format: 'date',
  description:
    'A date, YYYY-MM-DD, e.g. 2024-06-25: the records as they stood once every change effective on or before it was applied. A code added later is `404 code_not_found` (and absent from lists). Without it: the records as the latest import left them, changes effective after today included (an import may be dated ahead); send the current date for what holds today.',
});

const StatusFilter = Type.Unsafe<string>({ type: 'string', enum: [...CODE_STATUSES], description: 'Only codes with this status.' });

export const HierarchyQuery = Type.Object(
  { limit: Type.Optional(Limit), cursor: Type.Optional(Cursor), status: Type.Optional(StatusFilter) },
  { additionalProperties: false },
);

export const CodeQuery = Type.Object({ as_of: Type.Optional(AsOf) }, { additionalProperties: false });

export const BatchBody = Type.Object(
  {
    ids: Type.Array(Type.String({ minLength: 1, maxLength: BATCH_ID_MAX_LENGTH }), {
      minItems: 1,
      maxItems: BATCH_MAX_IDS,
      description: `1 to ${BATCH_MAX_IDS} code ids, \`{system}:{code}\` (not percent-encoded: they are JSON strings).`,
      examples: [['iso4217:EUR', 'iso4217:USD', 'iso4217:XYZ']],
    }),
    as_of: Type.Optional(AsOf),
  },
  { additionalProperties: false },
);

export const BatchResult = Type.Object(
  {
    object: Type.Literal('batch'),
    data: Type.Array(CodeRecord, { description: 'The records found, in the order of `ids`, each once.' }),
    not_found: Type.Array(Type.String(), { description: 'The ids not found (on `as_of`, when given), in the order of `ids`.' }),
  },
  { additionalProperties: false, description: 'The codes found and the ids not found.' },
);
