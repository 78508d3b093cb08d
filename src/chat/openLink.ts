// Opening a link to an engagement (`…/engagement?environment=<label or id>&id=<id>`): the
// details of that engagement in that environment of the user's own. A link never adds an
// environment, changes a setting, carries a key or writes: anything else is refused with a
// message. Opening it in an environment that is not the active one asks first, saying when
// that environment comes from the workspace and where it sends the key.
import * as vscode from 'vscode';
import { Commands } from '../shared/constants';
import { shownLabel } from '../session/labels';
import { originOf } from '../session/model';
import type { Services } from '../shared/services';
import { LINK_PART_LIMIT, LINK_PATH } from './link';

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
