import type { Feature, Services } from '../services';

// Placeholder until the Usage dashboard lands: no commands yet.
export type UsageExports = Record<string, never>;

export function registerUsage(_services: Services): Feature<UsageExports> {
  return { commands: {} };
}
