// The test seams: built from the parts the features gave back to `activate`, in development and
// test builds only. `activate` imports this module under `if (TEST_SEAMS)`, which the production
// build compiles to `if (false)`, so neither this folder nor anything only it uses ships.
import type { Services } from '../services';
import type { Ui } from '../ui/ui';
import type { EnvironmentStatusBar } from '../environments/statusBar';
import type { ChatParts } from '../chat/index';
import type { EngagementsParts } from '../engagements/index';
import type { UsageParts } from '../usage/index';
import { chatProbe } from './chat';
import { engagementsProbe } from './engagements';
import { environmentsProbe } from './environments';
import { usageProbe } from './usage';
import type { ExtensionExports } from './exports';

/** What the composition root built: the services (their UI slot holding VS Code's UI), and each feature's parts. */
export interface Composed {
  services: Services;
  useLocale: (locale?: string) => void;
  environments: { statusBar: EnvironmentStatusBar };
  engagements: EngagementsParts;
  usage: UsageParts;
  chat: ChatParts;
}

export function testSeams(composed: Composed): ExtensionExports {
  const { services } = composed;
  // What `useUi()` restores: the UI the services were assembled with.
  const realUi = services.ui.current;
  return {
    useUi(replacement?: Ui) {
      services.ui.current = replacement ?? realUi;
    },
    useLocale: composed.useLocale,
    environments: environmentsProbe(services, composed.environments),
    engagements: engagementsProbe(composed.engagements),
    usage: usageProbe(services, composed.usage),
    chat: chatProbe(composed.chat),
  };
}
