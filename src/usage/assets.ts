// The dashboard webview's script and style sheet, read from the extension's folder once (with
// the panel's code, before its HTML is set) and written into each dashboard's page.
import * as vscode from 'vscode';

export interface DashboardAssets {
  script: string;
  style: string;
}

/** Reads the assets on first call; a failed read is tried again by the next call. */
export function assetsLoader(extensionUri: vscode.Uri): () => Promise<DashboardAssets> {
  let assets: Promise<DashboardAssets> | undefined;
  const read = async (...path: string[]) =>
    new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, ...path)));
  return () => {
    assets ??= Promise.all([read('dist', 'webview.js'), read('media', 'dashboard.css')]).then(([script, style]) => ({
      script,
      style,
    }));
    assets.catch(() => (assets = undefined));
    return assets;
  };
}
