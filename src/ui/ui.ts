// Every question the extension asks a person goes through `Ui`. The VS Code implementation
// (vscodeUi.ts) shows real input boxes, quick picks and notifications; integration tests
// install a scripted one through the extension's exports and answer the very same flows.
import type * as vscode from 'vscode';

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

export interface PickItem<T> {
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
