// Every function that renders service text for a reader in Node's reach: its name, where its
// text shows, and whether it promises one line.
import { oneLine as errorOneLine } from '../../../src/api/errorBodies';
import { escapeLine, escapeMarkdown, inlineCode } from '../../../src/core/engagementText';
import { compactValue } from '../../../src/core/records';
import { displayText, escapeIcons, safeLabel, safeText, shortLabel } from '../../../src/core/text';
import { oneLine as webviewOneLine } from '../../../src/core/webviewErrors';

export interface Renderer {
  /** The function, and where its text shows when that is not plain from the name. */
  name: string;
  render: (text: string) => string;
  /** What it renders is one line, whatever line terminators the text holds. */
  oneLine: boolean;
}

export const RENDERERS: Renderer[] = [
  { name: 'displayText', render: displayText, oneLine: false },
  { name: 'safeText', render: safeText, oneLine: false },
  { name: 'safeLabel (quick picks, status bar)', render: safeLabel, oneLine: true },
  { name: 'shortLabel (tree, Go to Engagement)', render: (t) => shortLabel(t, 'id'), oneLine: true },
  { name: 'escapeIcons', render: escapeIcons, oneLine: false },
  { name: 'escapeMarkdown', render: escapeMarkdown, oneLine: false },
  { name: 'escapeLine (confirmations, headings, table cells)', render: escapeLine, oneLine: true },
  { name: 'inlineCode', render: inlineCode, oneLine: true },
  { name: 'errorText oneLine (the service’s words)', render: errorOneLine, oneLine: true },
  { name: 'webviewErrors oneLine (the log)', render: webviewOneLine, oneLine: true },
  { name: 'compactValue (usage table cells)', render: (t) => compactValue(t, 1_000), oneLine: true },
];
