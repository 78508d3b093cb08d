// Which environment a command is about: the one it was given (an id, or a tree item's
// environment), the active one, or one the user picks.
import type { Services } from '../shared/services';
import type { Environment } from '../session/model';
import { destination, shownLabel } from '../session/labels';

/** The environment a command's argument names (an id or an environment), else the active one. */
export function target(services: Services, arg: unknown): Environment | undefined {
  const store = services.environments;
  if (typeof arg === 'string') return store.get(arg);
  if (typeof arg === 'object' && arg !== null && typeof (arg as Environment).id === 'string')
    return store.get((arg as Environment).id);
  return store.active();
}

/** Asks which environment, unless there is only one (or none: undefined). */
export async function pickEnvironment(
  services: Services,
  title: string,
  filter: (env: Environment) => boolean = () => true,
): Promise<Environment | undefined> {
  const store = services.environments;
  const envs = store.list().filter(filter);
  if (envs.length === 0) return undefined;
  if (envs.length === 1) return envs[0];
  const all = store.list();
  const chosen = await services.ui.current.pick({
    title,
    items: envs.map((env) => ({ label: shownLabel(env, all), description: destination(env), value: env.id })),
  });
  return typeof chosen === 'string' ? store.get(chosen) : undefined;
}
