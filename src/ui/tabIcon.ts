import * as vscode from 'vscode';

/**
 * The icon of the extension's editor tabs (dashboard, details), drawn for each theme kind:
 * a tab icon is an image, not a codicon, so it does not follow the theme's foreground.
 */
export function tabIcon(extensionUri: vscode.Uri): { light: vscode.Uri; dark: vscode.Uri } {
  return {
    light: vscode.Uri.joinPath(extensionUri, 'media', 'tab-light.svg'),
    dark: vscode.Uri.joinPath(extensionUri, 'media', 'tab-dark.svg'),
  };
}
