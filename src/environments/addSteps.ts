// The steps of Add Environment, each one question: label → base URL → API key, with step
// numbers and Back. Each keeps its answer in the draft, so going back (or being sent back by
// the key check) shows what was typed.
import * as vscode from 'vscode';
import { parseBaseUrl } from '../core/validation';
import type { Back, InputStep, Ui } from '../ui/ui';

/** What the user has typed so far, and why the check sent them back to an answer. */
export interface Draft {
  label: string;
  baseUrl: string;
  key: string;
  keyError?: string;
  urlError?: string;
}

type Step = () => Promise<'next' | Back | undefined>;

export function validateKey(value: string): string | undefined {
  const key = value.trim();
  if (!key) return vscode.l10n.t('Enter the API key.');
  if (/\s/.test(key)) return vscode.l10n.t('An API key has no spaces; check what was pasted.');
  return undefined;
}

/** Step 1: a label no other environment of the user's has. */
export function labelStep(ui: { current: Ui }, title: string, draft: Draft, taken: ReadonlySet<string>): Step {
  return async () => {
    const label = await ui.current.input({
      title,
      step: 1,
      totalSteps: 3,
      value: draft.label,
      prompt: vscode.l10n.t('A short name for this environment, such as Production or Staging.'),
      placeholder: vscode.l10n.t('Label'),
      validate: (v) =>
        !v.trim()
          ? vscode.l10n.t('Enter a label.')
          : taken.has(v.trim().toLowerCase())
            ? vscode.l10n.t('An environment with this label exists already.')
            : v.trim().length > 60
              ? vscode.l10n.t('Keep the label under 60 characters.')
              : undefined,
    });
    if (typeof label !== 'string') return label;
    draft.label = label.trim();
    return 'next';
  };
}

/** Step 2: the service's base URL, with why the check refused the last one. */
export function baseUrlStep(ui: { current: Ui }, title: string, draft: Draft): Step {
  return async () => {
    const step: InputStep = {
      title,
      step: 2,
      totalSteps: 3,
      value: draft.baseUrl || 'https://',
      prompt: vscode.l10n.t('Base URL of the service, ending in /v1 (https, or http for localhost only).'),
      placeholder: 'https://api.example.com/v1',
      validate: (v) => {
        const r = parseBaseUrl(v);
        return r.ok ? undefined : r.message;
      },
      initialError: draft.urlError,
    };
    const baseUrl = await ui.current.input(step);
    draft.urlError = undefined;
    if (typeof baseUrl !== 'string') return baseUrl;
    const parsed = parseBaseUrl(baseUrl);
    draft.baseUrl = parsed.ok ? parsed.url : baseUrl.trim();
    return 'next';
  };
}

/** Step 3: the API key (hidden), with why the service rejected the last one. */
export function keyStep(ui: { current: Ui }, title: string, draft: Draft): Step {
  return async () => {
    const key = await ui.current.input({
      title,
      step: 3,
      totalSteps: 3,
      value: draft.key,
      password: true,
      prompt: vscode.l10n.t("API key for {0}. It is kept in VS Code's secret storage only.", draft.label),
      placeholder: vscode.l10n.t('API key'),
      validate: validateKey,
      initialError: draft.keyError,
    });
    draft.keyError = undefined;
    if (typeof key !== 'string') return key;
    draft.key = key.trim();
    return 'next';
  };
}
