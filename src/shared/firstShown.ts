// Whether a view or panel of the extension has been on screen in this window. Background
// reads that nothing on screen asked for (the calls item in the status bar) wait for it, so
// activating the extension, e.g. by Show Logs, makes no request before a view is visible.
export class FirstShown {
  private waiting: Array<() => void> = [];
  private done = false;

  get shown(): boolean {
    return this.done;
  }

  /** A view or panel is visible. */
  mark(): void {
    if (this.done) return;
    this.done = true;
    for (const run of this.waiting.splice(0)) run();
  }

  /** Runs `then` once something has been shown (at once if it has). */
  whenShown(then: () => void): { dispose(): void } {
    if (this.done) {
      then();
      return { dispose: () => undefined };
    }
    this.waiting.push(then);
    return { dispose: () => (this.waiting = this.waiting.filter((run) => run !== then)) };
  }
}
