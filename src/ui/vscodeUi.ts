import * as vscode from 'vscode';
import { BACK, type Back, type InputStep, type MessageLevel, type MessageOptions, type PickItem, type PickStep, type Ui } from './ui';

/** The real UI: input boxes and quick picks with step numbers and a Back button. */
export class VscodeUi implements Ui {
  input(step: InputStep): Promise<string | Back | undefined> {
    const box = vscode.window.createInputBox();
    box.title = step.title;
    box.step = step.step;
    box.totalSteps = step.totalSteps;
    box.value = step.value ?? '';
    box.valueSelection = step.value ? [0, step.value.length] : undefined;
    box.placeholder = step.placeholder;
    box.prompt = step.prompt;
    box.password = step.password ?? false;
    // Typed text is never thrown away because focus moved elsewhere.
    box.ignoreFocusOut = true;
    box.buttons = step.step && step.step > 1 ? [vscode.QuickInputButtons.Back] : [];
    if (step.initialError) box.validationMessage = { message: step.initialError, severity: vscode.InputBoxValidationSeverity.Error };
    return new Promise((resolve) => {
      const disposables: vscode.Disposable[] = [];
      const finish = (result: string | Back | undefined) => {
        for (const d of disposables) d.dispose();
        box.dispose();
        resolve(result);
      };
      disposables.push(
        box.onDidChangeValue((value) => {
          box.validationMessage = step.validate?.(value);
        }),
        box.onDidAccept(() => {
          const problem = step.validate?.(box.value);
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
    qp.title = step.title;
    qp.step = step.step;
    qp.totalSteps = step.totalSteps;
    qp.placeholder = step.placeholder;
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
          const free: Item = { label: step.freeEntry.label(typed), description: problem, free: true, value: problem ? undefined : step.freeEntry.value(typed), alwaysShow: true };
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
    const items = toItems(step.items).map((item) => ({ ...item, picked: step.items.find((i) => i.value === item.value)?.picked }));
    const chosen = await vscode.window.showQuickPick(items, { title: step.title, placeHolder: step.placeholder, canPickMany: true, ignoreFocusOut: true });
    return chosen?.filter((item) => item.value !== undefined).map((item) => item.value as T);
  }

  message(level: MessageLevel, text: string, options: MessageOptions, ...actions: string[]): Promise<string | undefined> {
    const show = level === 'error' ? vscode.window.showErrorMessage : level === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    return Promise.resolve(show(text, { modal: options.modal ?? false, detail: options.detail }, ...actions));
  }

  saveFile(options: { title: string; defaultUri?: vscode.Uri; filters: Record<string, string[]> }): Promise<vscode.Uri | undefined> {
    return Promise.resolve(vscode.window.showSaveDialog({ title: options.title, defaultUri: options.defaultUri, filters: options.filters }));
  }
}

function toItems<T>(items: PickItem<T>[]): Array<vscode.QuickPickItem & { value?: T }> {
  const out: Array<vscode.QuickPickItem & { value?: T }> = [];
  for (const item of items) {
    if (item.separatorBefore !== undefined) out.push({ label: item.separatorBefore, kind: vscode.QuickPickItemKind.Separator });
    out.push({
      label: item.iconId ? `$(${item.iconId}) ${item.label}` : item.label,
      description: item.description,
      detail: item.detail,
      value: item.value,
    });
  }
  return out;
}
