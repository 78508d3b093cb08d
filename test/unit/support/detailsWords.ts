// The details panel's words for its fields, as the extension takes them from its l10n in
// English: the unit suites that build a details view (src/engagements/detailsProtocol.ts) use these.
import type { DetailsWords } from '../../../src/engagements/detailsProtocol';

export const DETAILS_WORDS: DetailsWords = {
  id: 'ID',
  type: 'Type',
  status: 'Status',
  evaluations: 'Evaluations',
  created: 'Created',
  updated: 'Updated',
};
