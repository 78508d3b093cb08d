// Links to an engagement: making one, opening one (the details of that engagement in that
// environment of the user's own), and Copy Link.
//
// Links that open an engagement's details: `<scheme>://eus-tools.engagement-usage/engagement?environment=<label>&id=<id>`.
// A link names an environment of the user's own by its label and an engagement by its id;
// it carries nothing else (no URL, no key, no write).
import * as vscode from 'vscode';
import type { Engagement } from '../core/engagement';
import { nameText } from '../core/engagementText';
import { originOf, shownLabel } from '../session/model';
import { Commands, EXTENSION_ID } from '../shared/constants';
import { statusNotice } from '../ui/ui';
import type { Services } from '../services';
import type { ChatPorts } from './deps';

const LINK_PATH = '/engagement';
/** The longest id or label a link may carry. */
const LINK_PART_LIMIT = 200;

export function engagementLink(environmentLabel: string, id: string): string {
  const query = new URLSearchParams({ environment: environmentLabel, id }).toString();
  return vscode.Uri.from({ scheme: vscode.env.uriScheme, authority: EXTENSION_ID, path: LINK_PATH, query }).toString(
    true,
  );
}

// Opening a link to an engagement (`…/engagement?environment=<label or id>&id=<id>`): the
// details of that engagement in that environment of the user's own. A link never adds an
// environment, changes a setting, carries a key or writes: anything else is refused with a
// message. Opening it in an environment that is not the active one asks first, saying when
// that environment comes from the workspace and where it sends the key.
/** An engagement id as a link may carry it: letters, digits and `_ - . ~` only. */
const ID = /^[\w.~-]{1,200}$/;
const URL_LIKE = /^[a-z][a-z0-9+.-]*:|\/\//i;

/** What a link asks for, or why it is refused. */
function readLink(uri: vscode.Uri): { environment: string; id: string } | { refused: string } {
  if (uri.path !== LINK_PATH)
    return { refused: vscode.l10n.t('This link does not open anything this extension knows.') };
  if (uri.query.length > 2 * LINK_PART_LIMIT + 100)
    return { refused: vscode.l10n.t('This link is too long to be a link to an engagement.') };
  const params = new URLSearchParams(uri.query);
  const environment = params.get('environment')?.trim() ?? '';
  const id = params.get('id')?.trim() ?? '';
  if (!environment || !id) return { refused: vscode.l10n.t('This link names no environment or no engagement.') };
  if (URL_LIKE.test(environment) || environment.length > LINK_PART_LIMIT)
    return {
      refused: vscode.l10n.t('A link names an environment by its label, never by a URL: it was not opened.'),
    };
  if (!ID.test(id)) return { refused: vscode.l10n.t('This link does not name an engagement id: it was not opened.') };
  return { environment, id };
}

export async function openLink(services: Services, uri: vscode.Uri): Promise<void> {
  const ui = services.ui.current;
  const link = readLink(uri);
  if ('refused' in link) {
    services.log.warn(`A link was refused: ${link.refused}`);
    await ui.message('warning', link.refused, {});
    return;
  }
  const { environments, connection } = services;
  const env =
    environments.get(link.environment) ??
    environments.list().find((e) => e.label === link.environment) ??
    environments.list().find((e) => e.label.toLowerCase() === link.environment.toLowerCase());
  if (!env) {
    await ui.message(
      'warning',
      vscode.l10n.t(
        'The link is for the environment “{0}”, which is not one of yours: it was not opened. Add that environment first if you use it.',
        link.environment,
      ),
      {},
    );
    return;
  }
  if (connection.environment?.id !== env.id) {
    const open = vscode.l10n.t('Switch and Open');
    const label = shownLabel(env, environments.list());
    const detail = [
      env.production ? vscode.l10n.t('“{0}” is a production environment.', label) : '',
      env.source === 'workspace'
        ? vscode.l10n.t(
            '“{0}” is defined by this workspace’s settings, not by you, and sends your key to {1}.',
            env.label,
            originOf(env.baseUrl),
          )
        : '',
    ].filter((line) => line !== '');
    const choice = await ui.message(
      'info',
      vscode.l10n.t('Switch to the environment “{0}” to open engagement {1}?', label, link.id),
      { modal: true, detail: detail.length ? detail.join(' ') : undefined },
      open,
    );
    if (choice !== open) return;
    await environments.setActive(env.id);
  }
  await vscode.commands.executeCommand(Commands.openEngagement, link.id);
}

// Copy Link (the tree's context menu, the details view, the palette): the link of an
// engagement in the active environment, to the clipboard.
/** The link of an engagement in the active environment, as Copy Link writes it. */
export function linkOf(services: Services, id: string): string | undefined {
  const env = services.connection.environment;
  return env ? engagementLink(env.label, id) : undefined;
}

export async function copyLink(services: Services, ports: ChatPorts, args: unknown[]): Promise<void> {
  const [first] = args;
  const engagement: Pick<Engagement, 'id' | 'name'> | undefined =
    ports.rowEngagement(first) ??
    (typeof first === 'string' ? (ports.store.get(first) ?? { id: first, name: first }) : undefined);
  const link = engagement && linkOf(services, engagement.id);
  if (!engagement || !link) return;
  await vscode.env.clipboard.writeText(link);
  statusNotice(vscode.l10n.t('Copied the link of “{0}”.', nameText(engagement)));
}
