import { configureL10n, fillPlaceholders } from '../../core/l10n';
import { fill, type UiStringKey, type UiStrings, type WebviewMessage } from '../protocol';

declare function acquireVsCodeApi(): {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
};

const vscodeApi = acquireVsCodeApi();

/** Sends a message of the protocol to the host. */
export function send(message: WebviewMessage): void {
  vscodeApi.postMessage(message);
}

export function saveState(state: unknown): void {
  vscodeApi.setState(state);
}

let strings: Partial<UiStrings> = {};
let locale: string | undefined;

export function setStrings(next: UiStrings, nextLocale: string, messages?: Record<string, string>): void {
  strings = next;
  locale = nextLocale;
  // What src/core formats and says in the webview: the host's locale and translations.
  configureL10n({
    locale: nextLocale,
    translate: messages ? (message, ...args) => fillPlaceholders(messages[message] ?? message, ...args) : undefined,
  });
}

export function getLocale(): string | undefined {
  return locale;
}

/** A text of the UI, translated by the host, with `{0}`… filled in. */
export function t(key: UiStringKey, ...args: Array<string | number>): string {
  return fill(strings[key] ?? key, ...args);
}
