// Errors a webview reports to the extension (`webviewError` messages from the dashboard and
// the details panel) go to the log. A webview is not trusted to be well behaved: a loop that
// throws could send thousands, each many lines long. Each panel keeps one of these: every
// report becomes one short line, and after `REPORT_LIMIT` of them one line says the rest are
// not written.
import { l10n } from './l10n';
import { foldLines } from './text';

/** Reports written per panel (each panel starts again when it is made anew). */
const REPORT_LIMIT = 20;
/** Characters of one report written (whole code points; an ellipsis says it was cut). */
const REPORT_CHARS = 300;

export class WebviewErrorReports {
  private count = 0;

  /**
   * The line to write for a report, or undefined when this panel has written its share
   * (the one line at the limit says so).
   */
  line(message: string): string | undefined {
    this.count++;
    if (this.count > REPORT_LIMIT + 1) return undefined;
    if (this.count === REPORT_LIMIT + 1)
      return l10n.t('more errors than {0}; the rest from this webview are not written', REPORT_LIMIT);
    return oneLine(message);
  }
}

// C0 and C1 controls (tabs among them); line breaks are folded first (text.ts).
const CONTROLS = /\p{Cc}/gu;

/** One line: line breaks, tabs and other control characters made spaces (one per run), cut at `REPORT_CHARS`. */
export function oneLine(message: string): string {
  const line = foldLines(message).replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
  const chars = Array.from(line);
  return chars.length <= REPORT_CHARS ? line : `${chars.slice(0, REPORT_CHARS - 1).join('')}…`;
}
