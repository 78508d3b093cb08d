import type { EnvironmentsExports } from './environments';
import type { EngagementsExports } from './engagements';
import type { UsageExports } from './usage';
import type { ChatExports } from './chat';
import type { Ui } from '../ui/ui';

/**
 * What `activate` returns in Test and Development mode of a development or test build only
 * (nothing in Production mode, and none of this is in the production bundle: see seams.ts).
 * Integration tests use it as their seam: `useUi` answers the same input flows a person sees;
 * the rest lets them read what the views hold.
 */
export interface ExtensionExports {
  useUi(ui?: Ui): void;
  /** Formats numbers and dates for this locale from now on, as for a user whose display language it is (none: VS Code's). */
  useLocale(locale?: string): void;
  environments?: EnvironmentsExports;
  engagements?: EngagementsExports;
  usage?: UsageExports;
  chat?: ChatExports;
}
