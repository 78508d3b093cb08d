// The environments and capabilities survive VS Code's late echoes of global state. The
// memento below behaves as VS Code 1.100's extension host does (one object for the whole
// extension's state, sent on a zero-delay timer, replaced by every value the main process
// echoes back); the real race cannot be made to happen on demand in a running VS Code.
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { OwnState } from '../../src/shared/perEnvironment';

class EchoingMemento implements vscode.Memento {
  state: Record<string, unknown> = {};
  /** What the main process holds, and the echoes it has not delivered yet. */
  readonly stored: Array<Record<string, unknown>> = [];
  readonly echoes: Array<Record<string, unknown>> = [];

  keys(): readonly string[] {
    return Object.keys(this.state);
  }

  get<T>(key: string, fallback?: T): T {
    return (key in this.state ? this.state[key] : fallback) as T;
  }

  update(key: string, value: unknown): Thenable<void> {
    this.state = { ...this.state, [key]: value };
    return new Promise((resolve) =>
      setTimeout(() => {
        const sent = structuredClone(this.state);
        this.stored.push(sent);
        this.echoes.push(sent);
        resolve();
      }, 0),
    );
  }

  /** Delivers the oldest echo: the whole state as it was when that write was sent. */
  deliverEcho(): void {
    const echo = this.echoes.shift();
    if (echo) this.state = structuredClone(echo);
  }
}

describe('environments: own state against late echoes', () => {
  it('reads back the latest write even when an older echo arrives after it', async () => {
    const memento = new EchoingMemento();
    const state = new OwnState(memento);
    await state.update('environments', [{ id: 'a' }, { id: 'two' }]);
    await state.update('environments', [{ id: 'a' }]);
    memento.deliverEcho(); // the echo of the first write, late
    assert.deepEqual(memento.get('environments'), [{ id: 'a' }, { id: 'two' }], "VS Code's copy went back");
    assert.deepEqual(state.get('environments', []), [{ id: 'a' }], 'the removed environment stays removed');
  });

  it('sends a write again when an echo replaced it before it was sent', async () => {
    const memento = new EchoingMemento();
    const state = new OwnState(memento);
    await state.update('capabilities', { x: { read: true } });
    const write = state.update('capabilities', { x: { read: true, write: false } });
    memento.deliverEcho(); // arrives before the zero-delay send: the send carries the old value
    await write;
    assert.deepEqual(
      memento.stored.at(-1)?.capabilities,
      { x: { read: true, write: false } },
      'what is stored last is the latest write',
    );
  });

  it('reads a key it has not written from global state (values synced from elsewhere)', () => {
    const memento = new EchoingMemento();
    memento.state = { environments: [{ id: 'synced' }] };
    assert.deepEqual(new OwnState(memento).get('environments', []), [{ id: 'synced' }]);
  });
});
