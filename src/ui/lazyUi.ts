// The real UI, loaded when the first question or message is shown: activation only wires
// objects, and most sessions show the views long before any input box or notification.
import type * as vscode from 'vscode';
import type { Back, InputStep, MessageLevel, MessageOptions, PickStep, Ui } from './ui';

export class LazyUi implements Ui {
  private loaded?: Promise<Ui>;

  private real(): Promise<Ui> {
    return (this.loaded ??= import('./vscodeUi').then(({ VscodeUi }) => new VscodeUi()));
  }

  async input(step: InputStep): Promise<string | Back | undefined> {
    return (await this.real()).input(step);
  }

  async pick<T>(step: PickStep<T>): Promise<T | Back | undefined> {
    return (await this.real()).pick(step);
  }

  async pickMany<T>(step: Omit<PickStep<T>, 'freeEntry'>): Promise<T[] | undefined> {
    return (await this.real()).pickMany(step);
  }

  async message(
    level: MessageLevel,
    text: string,
    options: MessageOptions,
    ...actions: string[]
  ): Promise<string | undefined> {
    return (await this.real()).message(level, text, options, ...actions);
  }

  async saveFile(options: {
    title: string;
    defaultUri?: vscode.Uri;
    filters: Record<string, string[]>;
  }): Promise<vscode.Uri | undefined> {
    return (await this.real()).saveFile(options);
  }
}
