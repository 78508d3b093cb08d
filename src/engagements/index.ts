import type { Feature, Services } from '../services';

// Placeholder until the Engagements view lands: no commands yet.
export type EngagementsExports = Record<string, never>;

export function registerEngagements(_services: Services): Feature<EngagementsExports> {
  return { commands: {} };
}
