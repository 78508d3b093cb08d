// The messages between the dashboard's host (extension) and its webview, both ways, and the
// checks the host applies to everything the webview sends. No `vscode`, no DOM. One name to
// import from, for the host and the webview: the state (protocolState.ts), the messages
// (protocolMessages.ts) and the checks (protocolChecks.ts).
export * from './protocolState';
export * from './protocolMessages';
export { parseFilter, parseViewState, parseWebviewMessage } from './protocolChecks';

/** `{0}`, `{1}` … in a template replaced by the arguments, as text. */
export { fillPlaceholders as fill } from '../core/l10n';
