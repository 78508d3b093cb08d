// Links that open an engagement's details: `<scheme>://eus-tools.engagement-usage/engagement?environment=<label>&id=<id>`.
// A link names an environment of the user's own by its label and an engagement by its id;
// it carries nothing else (no URL, no key, no write).
import * as vscode from 'vscode';
import { EXTENSION_ID } from '../shared/constants';

export const LINK_PATH = '/engagement';
/** The longest id or label a link may carry. */
export const LINK_PART_LIMIT = 200;

export function engagementLink(environmentLabel: string, id: string): string {
  const query = new URLSearchParams({ environment: environmentLabel, id }).toString();
  return vscode.Uri.from({ scheme: vscode.env.uriScheme, authority: EXTENSION_ID, path: LINK_PATH, query }).toString(
    true,
  );
}
