import * as vscode from 'vscode';
import type { RequestLog } from '../api/client';
import { logText } from '../api/errors';
import { redact } from '../api/redact';

/** The extension's log channel. Requests are written without headers; keys are redacted. */
export class Log implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  private readonly secrets = new Set<string>();

  constructor() {
    this.channel = vscode.window.createOutputChannel(vscode.l10n.t('Engagement & Usage'), { log: true });
  }

  /** Keys known to the extension, scrubbed from anything written here. */
  rememberSecret(key: string | undefined): void {
    if (key && key.length >= 4) this.secrets.add(key);
  }

  scrub(text: string): string {
    let out = redact(text);
    for (const secret of this.secrets) out = redact(out, secret);
    return out;
  }

  info(message: string): void {
    this.channel.info(this.scrub(message));
  }

  warn(message: string): void {
    this.channel.warn(this.scrub(message));
  }

  error(message: string, error?: unknown): void {
    const detail =
      error instanceof Error
        ? `${error.name}: ${logText(error)}`
        : error === undefined
          ? ''
          : typeof error === 'string'
            ? error
            : JSON.stringify(error);
    this.channel.error(this.scrub(detail ? `${message} — ${detail}` : message));
  }

  request(environment: string, entry: RequestLog): void {
    const status = entry.status === undefined ? '' : ` ${entry.status}`;
    const retries = entry.retries ? `, ${entry.retries} retr${entry.retries === 1 ? 'y' : 'ies'}` : '';
    const line = `[${environment}] ${entry.method} ${entry.path} →${status} ${entry.outcome} in ${entry.durationMs} ms${retries}${entry.message ? ` — ${entry.message}` : ''}`;
    if (entry.outcome === 'ok') this.channel.debug(this.scrub(line));
    else if (entry.outcome === 'cancelled') this.channel.info(this.scrub(line));
    else this.channel.warn(this.scrub(line));
    // Once per answer, each field named once: the items lacking it show it as unknown, and those
    // without a usable id are counted as left out.
    if (entry.unknownFields)
      this.channel.warn(
        this.scrub(`[${environment}] ${entry.method} ${entry.path} — read in part: ${entry.unknownFields}`),
      );
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
