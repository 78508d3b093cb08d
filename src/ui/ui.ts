// Every question the extension asks a person goes through `Ui`. The VS Code implementation
// (`VscodeUi`, here) shows real input boxes, quick picks and notifications; integration tests
// install a scripted one through the extension's exports and answer the very same flows.
// Also the small pieces every view shares: a status-bar notice and a webview tab's icon.
import * as vscode from 'vscode';
import { safeLabel, safeText } from '../core/text';

// A registered symbol: the extension and the test bundles each carry a copy of this module,
// and Back must mean the same in both.
export const BACK = Symbol.for('engagementUsage.back');
export type Back = typeof BACK;

interface StepBase {
  title: string;
  /** 1-based position in a multi-step flow; shown as "step/total". */
  step?: number;
  totalSteps?: number;
  placeholder?: string;
  prompt?: string;
}

export interface InputStep extends StepBase {
  value?: string;
  password?: boolean;
  /** A sentence saying what is wrong, or undefined when the text is fine. */
  validate?: (value: string) => string | undefined;
  /** A message to show at once (e.g. "the service rejected this key"). */
  initialError?: string;
}

interface PickItem<T> {
  label: string;
  description?: string;
  detail?: string;
  value: T;
  picked?: boolean;
  iconId?: string;
  separatorBefore?: string;
}

export interface PickStep<T> extends StepBase {
  items: PickItem<T>[];
  /** Offer the typed text as an item of its own (the contract leaves types and statuses open). */
  freeEntry?: {
    label: (text: string) => string;
    value: (text: string) => T;
    validate?: (text: string) => string | undefined;
  };
  activeValue?: T;
  canSelectMany?: false;
}

export type MessageLevel = 'info' | 'warning' | 'error';

export interface MessageOptions {
  modal?: boolean;
  detail?: string;
}

export interface Ui {
  /** Resolves to the text, BACK when the Back button was pressed, or undefined when dismissed. */
  input(step: InputStep): Promise<string | Back | undefined>;
  pick<T>(step: PickStep<T>): Promise<T | Back | undefined>;
  pickMany<T>(step: Omit<PickStep<T>, 'freeEntry'>): Promise<T[] | undefined>;
  /** Shows a notification (or a modal dialog) and resolves to the action chosen, if any. */
  message(
    level: MessageLevel,
    text: string,
    options: MessageOptions,
    ...actions: string[]
  ): Promise<string | undefined>;
  saveFile(options: {
    title: string;
    defaultUri?: vscode.Uri;
    filters: Record<string, string[]>;
  }): Promise<vscode.Uri | undefined>;
}

export function isBack(value: unknown): value is Back {
  return value === BACK;
}

/**
 * Runs the steps of a multi-step flow in order; BACK returns to the previous step with the
 * answers kept, undefined (dismissed) ends the flow. Steps may skip themselves by returning
 * 'skip'. Resolves to true when every step has answered.
 */
export async function runSteps(
  steps: ReadonlyArray<() => Promise<'next' | 'skip' | Back | undefined>>,
  startAt = 0,
): Promise<boolean> {
  let index = startAt;
  // Starting later (to re-ask one answer) keeps Back working towards the first step.
  const visited: number[] = Array.from({ length: startAt }, (_, i) => i);
  while (index < steps.length) {
    const outcome = await steps[index]();
    if (outcome === undefined) return false;
    if (outcome === BACK) {
      const previous = visited.pop();
      if (previous === undefined) return false;
      index = previous;
      continue;
    }
    if (outcome === 'next') visited.push(index);
    index++;
  }
  return true;
}

/** The real UI: input boxes and quick picks with step numbers and a Back button. */
export class VscodeUi implements Ui {
  input(step: InputStep): Promise<string | Back | undefined> {
    const box = vscode.window.createInputBox();
    // Titles, prompts and messages may quote a service or a workspace: made safe (core/text).
    // The value is the user's own text and is left as it is.
    box.title = optional(step.title, safeText);
    box.step = step.step;
    box.totalSteps = step.totalSteps;
    box.value = step.value ?? '';
    // A value offered is selected, so typing replaces it; one refused (by the service or a
    // check) is there to be corrected: the cursor at its end, so a key pressed does not erase it.
    const end = step.value?.length ?? 0;
    box.valueSelection = step.value ? (step.initialError && !step.password ? [end, end] : [0, end]) : undefined;
    box.placeholder = optional(step.placeholder, safeText);
    box.prompt = optional(step.prompt, safeText);
    box.password = step.password ?? false;
    // Typed text is never thrown away because focus moved elsewhere.
    box.ignoreFocusOut = true;
    box.buttons = step.step && step.step > 1 ? [vscode.QuickInputButtons.Back] : [];
    if (step.initialError)
      box.validationMessage = {
        message: safeText(step.initialError),
        severity: vscode.InputBoxValidationSeverity.Error,
      };
    const validate = (value: string) => optional(step.validate?.(value), safeText);
    return new Promise((resolve) => {
      const disposables: vscode.Disposable[] = [];
      const finish = (result: string | Back | undefined) => {
        for (const d of disposables) d.dispose();
        box.dispose();
        resolve(result);
      };
      disposables.push(
        box.onDidChangeValue((value) => {
          box.validationMessage = validate(value);
        }),
        box.onDidAccept(() => {
          const problem = validate(box.value);
          if (problem) {
            box.validationMessage = problem;
            return;
          }
          finish(box.value);
        }),
        box.onDidTriggerButton((button) => {
          if (button === vscode.QuickInputButtons.Back) finish(BACK);
        }),
        box.onDidHide(() => finish(undefined)),
      );
      box.show();
    });
  }

  pick<T>(step: PickStep<T>): Promise<T | Back | undefined> {
    type Item = vscode.QuickPickItem & { value?: T; free?: boolean };
    const qp = vscode.window.createQuickPick<Item>();
    qp.title = optional(step.title, safeText);
    qp.step = step.step;
    qp.totalSteps = step.totalSteps;
    qp.placeholder = optional(step.placeholder, safeText);
    qp.ignoreFocusOut = true;
    qp.matchOnDescription = true;
    qp.buttons = step.step && step.step > 1 ? [vscode.QuickInputButtons.Back] : [];
    const base = toItems(step.items);
    qp.items = base;
    const active = base.find((item) => item.value !== undefined && item.value === step.activeValue);
    if (active) qp.activeItems = [active];
    return new Promise((resolve) => {
      const disposables: vscode.Disposable[] = [];
      const finish = (result: T | Back | undefined) => {
        for (const d of disposables) d.dispose();
        qp.dispose();
        resolve(result);
      };
      disposables.push(
        qp.onDidChangeValue((text) => {
          if (!step.freeEntry) return;
          const typed = text.trim();
          // Compared with the labels as given (the shown ones may carry a `$(icon)` prefix).
          const exact = step.items.some((item) => item.label === typed);
          if (!typed || exact) {
            qp.items = base;
            return;
          }
          const problem = step.freeEntry.validate?.(typed);
          const free: Item = {
            label: safeLabel(step.freeEntry.label(typed)),
            description: optional(problem, safeLabel),
            free: true,
            value: problem ? undefined : step.freeEntry.value(typed),
            alwaysShow: true,
          };
          qp.items = [free, ...base];
        }),
        qp.onDidAccept(() => {
          const chosen = qp.selectedItems[0] ?? qp.activeItems[0];
          if (!chosen || chosen.value === undefined) return;
          finish(chosen.value);
        }),
        qp.onDidTriggerButton((button) => {
          if (button === vscode.QuickInputButtons.Back) finish(BACK);
        }),
        qp.onDidHide(() => finish(undefined)),
      );
      qp.show();
    });
  }

  async pickMany<T>(step: Omit<PickStep<T>, 'freeEntry'>): Promise<T[] | undefined> {
    const items = toItems(step.items).map((item) => ({
      ...item,
      picked: step.items.find((i) => i.value === item.value)?.picked,
    }));
    const chosen = await vscode.window.showQuickPick(items, {
      title: safeText(step.title),
      placeHolder: optional(step.placeholder, safeText),
      canPickMany: true,
      ignoreFocusOut: true,
    });
    return chosen?.filter((item) => item.value !== undefined).map((item) => item.value as T);
  }

  /**
   * Every notification and dialog of the extension. VS Code renders Markdown links in a
   * notification's text, `command:` links included: the text is made safe here, the one place
   * all messages pass (server messages, field errors, names, labels from a workspace).
   */
  message(
    level: MessageLevel,
    text: string,
    options: MessageOptions,
    ...actions: string[]
  ): Promise<string | undefined> {
    const show =
      level === 'error'
        ? vscode.window.showErrorMessage
        : level === 'warning'
          ? vscode.window.showWarningMessage
          : vscode.window.showInformationMessage;
    return Promise.resolve(
      show(safeText(text), { modal: options.modal ?? false, detail: optional(options.detail, safeText) }, ...actions),
    );
  }

  saveFile(options: {
    title: string;
    defaultUri?: vscode.Uri;
    filters: Record<string, string[]>;
  }): Promise<vscode.Uri | undefined> {
    return Promise.resolve(
      vscode.window.showSaveDialog({ title: options.title, defaultUri: options.defaultUri, filters: options.filters }),
    );
  }
}

function toItems<T>(items: PickItem<T>[]): Array<vscode.QuickPickItem & { value?: T }> {
  const out: Array<vscode.QuickPickItem & { value?: T }> = [];
  for (const item of items) {
    if (item.separatorBefore !== undefined)
      out.push({ label: safeLabel(item.separatorBefore), kind: vscode.QuickPickItemKind.Separator });
    // Labels may be a service's or a workspace's text: `$(…)` in them shows as written.
    const label = safeLabel(item.label);
    out.push({
      label: item.iconId ? `$(${item.iconId}) ${label}` : label,
      description: optional(item.description, safeLabel),
      detail: optional(item.detail, safeLabel),
      value: item.value,
    });
  }
  return out;
}

function optional(text: string | undefined, clean: (text: string) => string): string | undefined {
  return text === undefined ? undefined : clean(text);
}

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

// A short confirmation in the status bar: a check mark, the text, gone after five seconds.
/** Shows `text` in the status bar for five seconds; returns the text as shown. */
export function statusNotice(text: string): string {
  // Names in it come from the service: `$(…)` shows as written, no control or override.
  const shown = `$(check) ${safeLabel(text)}`;
  vscode.window.setStatusBarMessage(shown, 5000);
  return shown;
}
