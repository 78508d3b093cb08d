// Export of every usage record of the dashboard's period (all pages, read concurrently by
// the client) to a CSV or JSON file the user picks, with progress and Cancel in the panel
// it was started from (once, not also in a notification).
import * as os from 'node:os';
import * as vscode from 'vscode';
import { isApiError, ApiError } from '../api/errors';
import type { ServiceApi } from '../api/service';
import type { UsageRecord } from '../api/types';
import { isFilterActive, toCsv, toJsonExport } from '../core/records';
import type { Services } from '../services';
import { describeError } from '../api/errorText';
import { showError } from '../ui/errorMessages';
import type { Dashboard } from './dashboard';
import { filtered } from './sections';

export class Exporter {
  private controller?: AbortController;

  constructor(
    private readonly services: Services,
    private readonly dashboard: Dashboard,
  ) {}

  get running(): boolean {
    return this.controller !== undefined;
  }

  cancel(): void {
    this.controller?.abort();
  }

  /** Asks where to save, then exports. Resolves when the file is written, cancelled or failed. */
  async run(format: 'csv' | 'json'): Promise<void> {
    if (this.running) return;
    const period = this.dashboard.state.view.period;
    const label = this.dashboard.state.environment.label;
    const uri = await this.services.ui.current.saveFile({
      title: vscode.l10n.t('Export the usage records of {0} ({1})', period, label),
      defaultUri: defaultTarget(label, period, format),
      filters:
        format === 'csv' ? { [vscode.l10n.t('CSV files')]: ['csv'] } : { [vscode.l10n.t('JSON files')]: ['json'] },
    });
    if (!uri) return;
    await this.exportTo(uri, format, period);
  }

  private async exportTo(uri: vscode.Uri, format: 'csv' | 'json', period: string): Promise<void> {
    const api = this.dashboard.api();
    if (!api || this.running) return;
    const controller = new AbortController();
    this.controller = controller;
    const name = uri.path.split('/').pop() ?? uri.toString();
    this.dashboard.setExport({ format, phase: 'running', loaded: 0, total: 0 });
    try {
      const result = await this.read(api, format, period, controller.signal);
      if (controller.signal.aborted) throw new ApiError('cancelled', 'The export was cancelled.');
      const text =
        format === 'csv'
          ? toCsv(result.items)
          : toJsonExport(result.items, { billingPeriod: period, exportedAt: new Date().toISOString() });
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
      const count = result.items.length;
      this.services.log.info(`Exported ${count} usage records of ${period} to ${uri.fsPath || uri.toString()}.`);
      this.dashboard.setExport({ format, phase: 'done', loaded: count, total: count, detail: name });
      this.announce(uri, period, count, result.missing);
    } catch (error) {
      if (isApiError(error) && error.kind === 'cancelled') {
        this.dashboard.setExport({ format, phase: 'cancelled', loaded: 0, total: 0 });
        return;
      }
      this.services.log.error(`Export of the usage records of ${period} failed`, error);
      this.dashboard.setExport({
        format,
        phase: 'failed',
        loaded: 0,
        total: 0,
        detail: describeError(error, this.dashboard.state.environment.label),
      });
      void showError(this.services.ui.current, error, {
        action: vscode.l10n.t('export the usage records'),
        environmentLabel: this.dashboard.state.environment.label,
        retry: () => this.exportTo(uri, format, period),
      });
    } finally {
      if (this.controller === controller) this.controller = undefined;
    }
  }

  /** Every record of the period, or, in a filtered view, what it shows: the records of the whole period that pass the filter. */
  private async read(
    api: ServiceApi,
    format: 'csv' | 'json',
    period: string,
    signal: AbortSignal,
  ): Promise<{ items: UsageRecord[]; missing: number }> {
    // Its progress and its Cancel button are in the dashboard, where it was started: once.
    const onProgress = (loaded: number, total: number) =>
      this.dashboard.setExport({ format, phase: 'running', loaded, total });
    const filter = this.dashboard.state.view.filter;
    if (isFilterActive(filter)) {
      const scan = await this.dashboard.scan.read(api, period, onProgress, signal);
      return { items: filtered(scan, filter), missing: scan.missing };
    }
    const all = await api.usage.detailsAll(period, { signal, onProgress });
    return { items: all.items, missing: all.stop ? all.totalCount - all.items.length : 0 };
  }

  /** Says the file was written, with Open File. Records the service announced but would not page to are said, not silently left out. */
  private announce(uri: vscode.Uri, period: string, count: number, missing: number): void {
    const name = uri.path.split('/').pop() ?? uri.toString();
    const open = vscode.l10n.t('Open File');
    const said =
      missing > 0
        ? vscode.l10n.t(
            'Exported {0} usage records of {1} to {2}. {3} more could not be read: the service does not page them further.',
            count,
            period,
            name,
            missing,
          )
        : vscode.l10n.t('Exported {0} usage records of {1} to {2}.', count, period, name);
    void this.services.ui.current.message(missing > 0 ? 'warning' : 'info', said, {}, open).then(async (choice) => {
      if (choice === open) await vscode.window.showTextDocument(uri);
    });
  }
}

function defaultTarget(label: string, period: string, format: 'csv' | 'json'): vscode.Uri | undefined {
  // No folder open: the home folder; in the browser, which has none, where the dialog starts by itself.
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? (WEB ? undefined : vscode.Uri.file(os.homedir()));
  const slug =
    label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'environment';
  return folder && vscode.Uri.joinPath(folder, `usage-${slug}-${period}.${format}`);
}
