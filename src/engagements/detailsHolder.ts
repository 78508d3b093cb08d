// The details panel, made on first use: it (and its webview code) is loaded when an
// engagement is first opened, not at activation.
import type * as vscode from 'vscode';
import type { EngagementDeps } from './common';
import type { DetailsPanel } from './detailsPanel';

export class DetailsHolder implements vscode.Disposable {
  /** The panel, once made. */
  current?: DetailsPanel;

  constructor(private readonly deps: EngagementDeps) {}

  /** The panel, made (and its module loaded) on first use. */
  async panel(): Promise<DetailsPanel> {
    return (this.current ??= new (await import('./detailsPanel')).DetailsPanel(() => this.deps));
  }

  dispose(): void {
    this.current?.dispose();
  }
}
