// Add Environment (label, base URL, API key, each one question with Back) and entering a key
// for an environment, with the key checked against the service before it is kept.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import type { ServiceApi } from '../api/service';
import { l10n } from '../core/l10n';
import { safeText } from '../core/text';
import { parseBaseUrl } from '../core/validation';
import type { Capabilities, Environment } from '../session/model';
import { newEnvironmentId, originOf } from '../session/model';
import { Commands } from '../shared/constants';
import type { Services } from '../services';
import { browserRefusalParts, describeError, serviceReason } from '../api/errorText';
import type { Back, InputStep, Ui } from '../ui/ui';
import { runSteps } from '../ui/ui';

type Verified =
  { ok: true; capabilities: Capabilities } | { ok: false; keyError?: string; urlError?: string } | undefined;

/** No answer came at all (no connection, or none in time), as against an answer that was a failure. */
function unreached(error: unknown): boolean {
  return isApiError(error) && (error.kind === 'network' || error.kind === 'timeout');
}

/**
 * Checks a key with the service, with progress. Resolves to its capabilities, to an error to
 * show in the key (or URL) input, or to undefined when the user gave up.
 */
async function verify(
  services: Services,
  env: Pick<Environment, 'id' | 'label' | 'baseUrl' | 'source'>,
  key: string,
): Promise<Verified> {
  const { ui } = services;
  for (let attempt = 0; attempt < 20; attempt++) {
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        // A workspace's base URL could carry a `[…](command:…)` link: the title is made safe.
        title: safeText(vscode.l10n.t('Checking the key with {0}…', env.baseUrl)),
        cancellable: true,
      },
      (_progress, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        return checkKey(services.connection.createApi(env, key), controller.signal);
      },
    );
    if (result.outcome === 'accepted') return { ok: true, capabilities: result.capabilities };
    if (result.outcome === 'rejected')
      return {
        ok: false,
        keyError: [
          vscode.l10n.t('The service rejected this key (401). Check it and enter it again.'),
          serviceReason(result.error),
        ]
          .filter(Boolean)
          .join(' '),
      };
    if (result.outcome === 'redirected')
      return {
        ok: false,
        urlError: describeError(result.error, env.label),
      };
    const retry = vscode.l10n.t('Retry');
    const browser = browserRefusalParts(result.error);
    // In a browser that refuses the service's answers, an environment saved now works in this
    // tab only once the service allows it: the button says so.
    const save = browser ? vscode.l10n.t('Save for Later') : vscode.l10n.t('Save Anyway');
    const [text, detail] = browser
      ? [
          vscode.l10n.t('The key could not be checked: {0}', browser.refusal),
          `${browser.needs} ${vscode.l10n.t('Saved now, the environment works in this tab once the service allows it.')}`,
        ]
      : [
          unreached(result.error)
            ? vscode.l10n.t('Could not reach the service to check the key: {0}', describeError(result.error, env.label))
            : vscode.l10n.t('Could not check the key: {0}', describeError(result.error, env.label)),
          vscode.l10n.t('Save the environment without checking, or retry.'),
        ];
    const choice = await ui.current.message('warning', text, { modal: true, detail }, retry, save);
    if (choice === save) return { ok: true, capabilities: {} };
    if (choice !== retry) return { ok: false };
  }
  return undefined;
}

/** Stores a key, offering a session-only key when secret storage is not available. */
async function storeKey(services: Services, env: Pick<Environment, 'id' | 'baseUrl'>, key: string): Promise<boolean> {
  const { id } = env;
  const outcome = await services.vault.store(id, env.baseUrl, key);
  if (outcome === 'stored') return true;
  const session = vscode.l10n.t('Keep for This Session');
  const choice = await services.ui.current.message(
    'error',
    vscode.l10n.t('VS Code could not save the key in its secret storage (is an OS keyring available?).'),
    {
      modal: true,
      detail: vscode.l10n.t(
        'The key can be kept in memory until this window closes; it is never written anywhere else.',
      ),
    },
    session,
  );
  if (choice !== session) return false;
  services.vault.storeForSession(id, env.baseUrl, key);
  return true;
}

/** Label → base URL → API key, with step numbers and Back; the key is checked before saving. */
export async function addEnvironmentFlow(services: Services): Promise<Environment | undefined> {
  const { ui, environments: store } = services;
  const title = vscode.l10n.t('Add Environment');
  const draft: Draft = { label: '', baseUrl: '', key: '', keyError: undefined, urlError: undefined };
  // A workspace's environments do not take a label from the user: theirs is marked "(workspace)".
  const taken = new Set(
    store
      .list()
      .filter((env) => env.source !== 'workspace')
      .map((env) => env.label.toLowerCase()),
  );
  const id = newEnvironmentId();
  const steps = [labelStep(ui, title, draft, taken), baseUrlStep(ui, title, draft), keyStep(ui, title, draft)];
  let startAt = 0;
  for (;;) {
    if (!(await runSteps(steps, startAt))) return undefined;
    const verified = await verify(
      services,
      { id, label: draft.label, baseUrl: draft.baseUrl, source: 'user' },
      draft.key,
    );
    if (verified === undefined) return undefined;
    if (verified.ok) return save(services, id, draft, verified.capabilities);
    startAt = sendBack(draft, verified);
  }
}

/** Back into the flow with what was right kept: only the rejected answer is asked again. Returns its step. */
function sendBack(draft: Draft, refused: { keyError?: string; urlError?: string }): number {
  if (refused.urlError) {
    draft.urlError = vscode.l10n.t('{0} Enter the final address of the service.', refused.urlError);
    return 1;
  }
  draft.keyError = refused.keyError;
  if (refused.keyError) draft.key = '';
  return 2;
}

async function save(
  services: Services,
  id: string,
  state: { label: string; baseUrl: string; key: string },
  capabilities: Capabilities,
): Promise<Environment | undefined> {
  if (!(await storeKey(services, { id, baseUrl: state.baseUrl }, state.key))) return undefined;
  const env = await services.environments.add({
    id,
    label: state.label,
    baseUrl: state.baseUrl,
    production: /\b(prod|production|live)\b/i.test(state.label),
  });
  await services.environments.learn(id, capabilities);
  await services.environments.setActive(id);
  services.log.info(`Environment "${env.label}" added (${env.baseUrl}).`);
  return env;
}

/** Asks for a (new) key for an existing environment, checks it, and stores it under the same id. */
export async function enterKeyFlow(services: Services, env: Environment): Promise<boolean> {
  let error: string | undefined;
  for (;;) {
    // An environment a workspace defines says so, and where the key goes, before it is typed.
    const fromWorkspace = env.source === 'workspace';
    const key = await services.ui.current.input({
      title: fromWorkspace
        ? vscode.l10n.t('API Key for {0}, defined by this workspace', env.label)
        : vscode.l10n.t('API Key for {0}', env.label),
      password: true,
      prompt: fromWorkspace
        ? vscode.l10n.t(
            'This workspace\'s settings (.vscode/settings.json) define "{0}": the key will be sent to {1} ({2}). Enter a key only if you trust that address.',
            env.label,
            originOf(env.baseUrl),
            env.baseUrl,
          )
        : vscode.l10n.t("The key is checked with {0}, then kept in VS Code's secret storage only.", env.baseUrl),
      placeholder: vscode.l10n.t('API key'),
      validate: validateKey,
      initialError: error,
    });
    if (typeof key !== 'string') return false;
    const verified = await verify(services, env, key.trim());
    if (verified === undefined) return false;
    if (!verified.ok) {
      // A URL problem is not the key's: said as such, never in the key box (no address can be typed there).
      if (verified.urlError) {
        await urlProblem(services, env, verified.urlError);
        return false;
      }
      error = verified.keyError;
      if (!error) return false;
      continue;
    }
    if (!(await storeKey(services, env, key.trim()))) return false;
    await services.environments.forgetCapabilities(env.id);
    await services.environments.learn(env.id, verified.capabilities);
    services.log.info(`API key of "${env.label}" replaced.`);
    return true;
  }
}

/**
 * The service answered the key check from another address: the environment's base URL must
 * change, which this flow cannot do. Said in a message, with where to change it: a workspace's
 * settings for an environment it defines; for one of the user's own, adding it again.
 */
async function urlProblem(services: Services, env: Environment, problem: string): Promise<void> {
  const fromWorkspace = env.source === 'workspace';
  const settings = vscode.l10n.t('Open Workspace Settings');
  const add = vscode.l10n.t('Add Environment');
  const choice = await services.ui.current.message(
    'error',
    vscode.l10n.t('The key was not saved: the base URL of {0} ({1}) has to change.', env.label, env.baseUrl),
    {
      modal: true,
      detail: fromWorkspace
        ? vscode.l10n.t("{0} The base URL is in this workspace's settings (engagementUsage.environments).", problem)
        : vscode.l10n.t('{0} Add the environment again with that address, then remove this one.', problem),
    },
    fromWorkspace ? settings : add,
  );
  if (choice === settings) await vscode.commands.executeCommand('workbench.action.openWorkspaceSettingsFile');
  else if (choice === add) await vscode.commands.executeCommand(Commands.addEnvironment);
}

// The steps of Add Environment, each one question: label → base URL → API key, with step
// numbers and Back. Each keeps its answer in the draft, so going back (or being sent back by
// the key check) shows what was typed.
/** What the user has typed so far, and why the check sent them back to an answer. */
interface Draft {
  label: string;
  baseUrl: string;
  key: string;
  keyError?: string;
  urlError?: string;
}

type Step = () => Promise<'next' | Back | undefined>;

function validateKey(value: string): string | undefined {
  const key = value.trim();
  if (!key) return vscode.l10n.t('Enter the API key.');
  if (/\s/.test(key)) return vscode.l10n.t('An API key has no spaces; check what was pasted.');
  return undefined;
}

/** Step 1: a label no other environment of the user's has. */
function labelStep(ui: { current: Ui }, title: string, draft: Draft, taken: ReadonlySet<string>): Step {
  return async () => {
    const label = await ui.current.input({
      title,
      step: 1,
      totalSteps: 3,
      value: draft.label,
      prompt: vscode.l10n.t('A short name for this environment, such as Production or Staging.'),
      placeholder: vscode.l10n.t('Label'),
      validate: (v) =>
        !v.trim()
          ? vscode.l10n.t('Enter a label.')
          : taken.has(v.trim().toLowerCase())
            ? vscode.l10n.t('An environment with this label exists already.')
            : v.trim().length > 60
              ? vscode.l10n.t('Keep the label under 60 characters.')
              : undefined,
    });
    if (typeof label !== 'string') return label;
    draft.label = label.trim();
    return 'next';
  };
}

/** Step 2: the service's base URL, with why the check refused the last one. */
function baseUrlStep(ui: { current: Ui }, title: string, draft: Draft): Step {
  return async () => {
    const step: InputStep = {
      title,
      step: 2,
      totalSteps: 3,
      value: draft.baseUrl || 'https://',
      prompt: vscode.l10n.t('Base URL of the service, ending in /v1 (https, or http for localhost only).'),
      placeholder: 'https://api.example.com/v1',
      validate: (v) => {
        const r = parseBaseUrl(v);
        return r.ok ? undefined : r.message;
      },
      initialError: draft.urlError,
    };
    const baseUrl = await ui.current.input(step);
    draft.urlError = undefined;
    if (typeof baseUrl !== 'string') return baseUrl;
    const parsed = parseBaseUrl(baseUrl);
    draft.baseUrl = parsed.ok ? parsed.url : baseUrl.trim();
    return 'next';
  };
}

/** Step 3: the API key (hidden), with why the service rejected the last one. */
function keyStep(ui: { current: Ui }, title: string, draft: Draft): Step {
  return async () => {
    const key = await ui.current.input({
      title,
      step: 3,
      totalSteps: 3,
      value: draft.key,
      password: true,
      prompt: vscode.l10n.t("API key for {0}. It is kept in VS Code's secret storage only.", draft.label),
      placeholder: vscode.l10n.t('API key'),
      validate: validateKey,
      initialError: draft.keyError,
    });
    draft.keyError = undefined;
    if (typeof key !== 'string') return key;
    draft.key = key.trim();
    return 'next';
  };
}

type KeyCheck =
  | { outcome: 'accepted'; capabilities: Capabilities }
  /** A 401; `error` carries the service's reason, when it gave one. */
  | { outcome: 'rejected'; message: string; error: unknown }
  /** The service pointed elsewhere; `error` says where (the key was not sent there). */
  | { outcome: 'redirected'; error: unknown }
  /** No answer from either read; `error` is the first failure. */
  | { outcome: 'unreachable'; error: unknown };

/**
 * Asks the service what a key may do, before it is saved: one engagement (engagements:read)
 * and the usage summary (usage:read), in parallel. A 401 on either means the key is
 * rejected; a 403 tells a missing scope; no answer at all means the service is unreachable.
 * Write permission cannot be probed without writing: it stays unknown until a write answers.
 */
async function checkKey(api: ServiceApi, signal?: AbortSignal): Promise<KeyCheck> {
  const [engagements, usage] = await Promise.allSettled([
    api.engagements.list({ page: 1, pageSize: 1 }, { signal }),
    api.usage.summary(undefined, { signal }),
  ]);
  const errors = [engagements, usage].flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  const rejected = errors.find((e) => isApiError(e) && e.kind === 'unauthorized');
  if (rejected)
    return {
      outcome: 'rejected',
      message: l10n.t('The service rejected this key (401). Check it and enter it again.'),
      error: rejected,
    };
  const redirect = errors.find((e) => isApiError(e) && e.kind === 'redirected');
  if (redirect) return { outcome: 'redirected', error: redirect };
  const answered = (r: PromiseSettledResult<unknown>) =>
    r.status === 'fulfilled' ||
    (isApiError(r.reason) &&
      (r.reason.kind === 'forbidden' || r.reason.kind === 'invalidRequest' || r.reason.kind === 'notFound'));
  if (!answered(engagements) && !answered(usage)) {
    return { outcome: 'unreachable', error: errors[0] };
  }
  const learned = (r: PromiseSettledResult<unknown>): boolean | undefined =>
    r.status === 'fulfilled' ? true : isApiError(r.reason) && r.reason.kind === 'forbidden' ? false : undefined;
  return { outcome: 'accepted', capabilities: { read: learned(engagements), usage: learned(usage) } };
}
