// How failures are told to the user. The words (describeError, serviceReason) are at hand at
// once: views show them as they draw. The error message with its actions is loaded by import()
// with the first failure shown (src/ui/errorMessage.ts), so activation does not load it.
import type { ErrorActions } from './errorMessage';
import type { Ui } from './ui';

export { describeError, serviceReason } from './errorWords';
export type { ErrorActions } from './errorMessage';

/**
 * Shows an error with the actions that fit its kind and runs the one chosen. Cancellations
 * are silent. Resolves when the message is dismissed or the chosen action has finished.
 */
export async function showError(ui: Ui, error: unknown, actions: ErrorActions = {}): Promise<void> {
  return (await import('./errorMessage')).showFailure(ui, error, actions);
}
