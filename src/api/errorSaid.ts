// What an error body said, gathered from wherever its format puts it, and made the result:
// the service's words (at most `messages` of them, each clipped) and its per-field reasons.
import { formatCount } from '../core/format';
import { l10n } from '../core/l10n';
import { clip, ERROR_BODY_LIMITS, JSON_LIKE, oneLine, parseJsonText, unique } from './errorText';
import type { Scope } from './types';

export interface ErrorBodyInfo {
  serverMessage?: string;
  fieldErrors?: Record<string, string>;
  scope?: Scope;
}

/** What a body said, gathered from wherever its format puts it. */
export class Said {
  /** The body's own headline (`message`, `detail`, `title`…), best first. */
  readonly headlines: string[] = [];
  /** Messages that name no field. */
  readonly messages: string[] = [];
  readonly fields = new Map<string, string[]>();
  /** Entries not looked at (past `entries`). */
  unread = 0;
  scope?: Scope;

  /** `readInner` reads a body found inside a string (a gateway's message holding the service's JSON). */
  constructor(private readonly readInner: (json: unknown, depth: number) => ErrorBodyInfo) {}

  /** A string only: a list in a headline's place (NestJS's `message: [..]`) is messages. */
  headline(value: unknown, depth: number): void {
    if (Array.isArray(value)) this.message(value, depth);
    else for (const text of this.strings(value, depth)) this.headlines.push(text);
  }

  message(value: unknown, depth: number): void {
    for (const text of this.strings(value, depth)) this.messages.push(text);
  }

  field(name: string, value: unknown, depth: number): void {
    const texts = this.strings(value, depth);
    if (!texts.length) return;
    const list = this.fields.get(name) ?? [];
    this.fields.set(name, [...list, ...texts]);
  }

  /** Strings of a value: a string (JSON inside one is read, not shown), or the strings of a short list. */
  private strings(value: unknown, depth: number): string[] {
    if (Array.isArray(value)) {
      return value
        .slice(0, ERROR_BODY_LIMITS.entries)
        .flatMap((v) => (typeof v === 'string' ? this.strings(v, depth) : []));
    }
    if (typeof value !== 'string') return [];
    const text = value.trim();
    if (JSON_LIKE.test(text)) {
      // A body encoded twice (a gateway's message holding the service's JSON): read it once more.
      const inner = depth < 3 ? parseJsonText(text) : undefined;
      if (inner !== undefined) {
        const info = this.readInner(inner, depth + 1);
        for (const [field, message] of Object.entries(info.fieldErrors ?? {})) this.field(field, message, depth + 1);
        return info.serverMessage ? [info.serverMessage] : [];
      }
      return [];
    }
    const line = oneLine(text);
    return line ? [clip(line, ERROR_BODY_LIMITS.messageChars)] : [];
  }

  result(): ErrorBodyInfo {
    const fieldErrors: Record<string, string> = {};
    const fieldNames = [...this.fields.keys()];
    for (const name of fieldNames.slice(0, ERROR_BODY_LIMITS.fields)) {
      const messages = unique(this.fields.get(name) ?? []);
      fieldErrors[name] = clip(
        messages.slice(0, ERROR_BODY_LIMITS.perField).join('; '),
        ERROR_BODY_LIMITS.messageChars,
      );
    }
    const headline = this.headlines[0];
    const messages = unique([...(headline ? [headline] : []), ...this.messages]);
    const more =
      Math.max(0, messages.length - ERROR_BODY_LIMITS.messages) +
      Math.max(0, fieldNames.length - ERROR_BODY_LIMITS.fields) +
      this.unread;
    let serverMessage = messages.slice(0, ERROR_BODY_LIMITS.messages).join('; ') || undefined;
    if (serverMessage && more > 0) serverMessage = l10n.t('{0} (and {1} more)', serverMessage, formatCount(more));
    else if (!serverMessage && more > 0)
      serverMessage = l10n.t(
        'the service gave {0} reasons',
        formatCount(Math.min(fieldNames.length, ERROR_BODY_LIMITS.fields) + more),
      );
    const info: ErrorBodyInfo = {};
    if (serverMessage) info.serverMessage = serverMessage;
    if (fieldNames.length) info.fieldErrors = fieldErrors;
    if (this.scope) info.scope = this.scope;
    return info;
  }
}
