/** Example responses of the navigation endpoints, from the demo data set's shapes. */
import { EXAMPLES } from './examples.ts';

const icd = (code: string, display: string, parents: string[]) => ({
  object: 'code',
  id: `icd10cm:${code}`,
  system: 'icd10cm',
  code,
  display,
  definition: null,
  status: 'active',
  parents: parents.map((p) => `icd10cm:${p}`),
  attributes: {},
  release: '2026',
  effective_from: '2025-10-01',
  updated_at: '2026-01-02T09:14:31.205Z',
});

const chapter = icd('A00-B99', 'Certain infectious and parasitic diseases', []);
const block = icd('A00-A09', 'Intestinal infectious diseases', ['A00-B99']);
const cholera = icd('A00', 'Cholera', ['A00-A09']);
const classical = icd('A00.0', 'Cholera due to Vibrio cholerae 01, biovar cholerae', ['A00']);

export const NAVIGATION_EXAMPLES = {
  childrenPage: {
    data: [classical, icd('A00.1', 'Cholera due to Vibrio cholerae 01, biovar eltor', ['A00'])],
    pagination: { has_more: true, next_cursor: 'WzEsImNoaWxkcmVuIiwiY29kZV9pZD1pY2QxMGNtJTNBQTAwIiwiaWNkMTBjbTpBMDAuMSJd.Wb3vRz5m8kqkHNKa3lVb2g' },
  },
  descendantsPage: {
    data: [cholera, classical],
    pagination: { has_more: true, next_cursor: 'WzEsImRlc2NlbmRhbnRzIiwiY29kZV9pZD1pY2QxMGNtJTNBQTAwLUEwOSIsImljZDEwY206QTAwLjAiXQ.0hY2sU9x1Jr6C9y7m1i8WA' },
  },
  ancestorsPage: { data: [cholera, block, chapter], pagination: { has_more: false } },
  rootsPage: {
    data: [chapter],
    pagination: { has_more: true, next_cursor: 'WzEsInJvb3RzIiwic3lzdGVtPWljZDEwY20iLCJpY2QxMGNtOkEwMC1COTkiXQ.n2e3W0m6y0r9aQhS8c1xgQ' },
  },
  codeAsOf: {
    ...EXAMPLES.code,
    attributes: { ...EXAMPLES.code.attributes, entities: 'Åland Islands; Andorra; Austria; Belgium; Croatia; …' },
    release: '2023-01',
    updated_at: '2026-01-02T09:14:30.958Z',
  },
  batch: { object: 'batch', data: [EXAMPLES.code], not_found: ['iso4217:XYZ'] },
};
