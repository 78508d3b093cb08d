// Copy Link (the tree's context menu, the details view, the palette): the link of an
// engagement in the active environment, to the clipboard.
import * as vscode from 'vscode';
import type { Engagement } from '../api/types';
import { statusNotice } from '../shared/notice';
import type { Services } from '../shared/services';
import type { ChatPorts } from './deps';
import { engagementLink } from './link';

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
  statusNotice(vscode.l10n.t('Copied the link of “{0}”.', engagement.name));
}
