import * as vscode from 'vscode';
import { StateKeys } from '../shared/constants';
import { type EngagementQuery, isFiltered, normaliseQuery } from '../core/query';

/** The view's sort, grouping and filter, remembered per workspace. */
export class QueryState implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<EngagementQuery>();
  readonly onDidChange = this.changed.event;
  private value: EngagementQuery;

  constructor(private readonly memento: vscode.Memento) {
    this.value = normaliseQuery(memento.get(StateKeys.engagementsQuery));
  }

  get current(): EngagementQuery {
    return this.value;
  }

  get filtered(): boolean {
    return isFiltered(this.value.filter);
  }

  /** Applies at once (the view repaints); resolves once it is remembered. */
  async update(changes: Partial<EngagementQuery>): Promise<void> {
    this.value = normaliseQuery({ ...this.value, ...changes });
    this.changed.fire(this.value);
    await this.memento.update(StateKeys.engagementsQuery, this.value);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
