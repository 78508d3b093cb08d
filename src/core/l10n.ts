// The one translation seam of the layers that must not import `vscode` (src/core, src/api and
// the webviews' code). Call it as `l10n.t('Message with {0}', value)`, always with a literal
// message: `npm run build` (scripts/l10n.mjs) finds these calls with @vscode/l10n-dev and
// writes every message into l10n/bundle.l10n.json. The extension points the seam at
// `vscode.l10n.t` and the user's display language at activation; until then (unit tests, the
// webviews) it gives the English message with its placeholders filled in.

export type Translate = (message: string, ...args: Array<string | number | boolean>) => string;

/** `{0}`, `{1}`… replaced by the arguments, as `vscode.l10n.t` does for the English bundle. */
export function fillPlaceholders(message: string, ...args: Array<string | number | boolean>): string {
  return message.replace(/\{(\d+)\}/g, (whole, index: string) =>
    Number(index) < args.length ? String(args[Number(index)]) : whole,
  );
}

let translate: Translate = fillPlaceholders;
let language: string | undefined;

export const l10n = {
  t(message: string, ...args: Array<string | number | boolean>): string {
    return translate(message, ...args);
  },
};

/** Where translations come from and which locale numbers and dates are formatted for. */
export function configureL10n(options: { translate?: Translate; locale?: string }): void {
  translate = options.translate ?? fillPlaceholders;
  language = options.locale || undefined;
}

/** The user's locale (VS Code's display language), undefined for the runtime's default. */
export function currentLocale(): string | undefined {
  return language;
}
