// Fault injection: rules checked in order, the first match applies, `times` counts down.
// Some kinds replace the answer entirely (the request is never handled); the "pass-through"
// kinds let the request be handled normally and only spoil the way the answer is delivered.

export type FaultKind =
  | 'status'
  | 'latency'
  | 'drop'
  | 'notJson'
  | 'truncated'
  | 'slowBody'
  | 'wrongContentType'
  | 'html'
  | 'empty200'
  | 'body'
  | 'redirect'
  | 'transform';

export interface FaultRule {
  /** e.g. 'GET'; default any. */
  method?: string;
  /** String: prefix of the path after /v1 (e.g. '/engagements'). RegExp: tested against the path after /v1 and the full path. Default any. */
  path?: string | RegExp;
  /** How many matching requests it applies to; default unlimited. */
  times?: number;
  kind: FaultKind;
  /** 'status': the status to answer (default 500); also overrides the status of 'html' (502) and 'notJson' (200). */
  status?: number;
  /** Extra response headers (any kind that answers). */
  headers?: Record<string, string>;
  /** 'status': JSON error body (default `{error:{code:'injected_fault',…}}`); 'body': the exact JSON answered with 200. */
  body?: unknown;
  /**
   * 'status': the body exactly as given, instead of `body` serialised: e.g. JSON whose strings
   * use escapes (`\u0041`, `\/`) a serialiser would not write, to test what a client decodes.
   */
  rawBody?: string;
  /** 'latency': delay before answering normally; 'slowBody': headers at once, body dribbled over ms. */
  ms?: number;
  /** 'redirect': absolute URL for Location (default: the same URL again). */
  location?: string;
  /**
   * 'transform': rewrites the JSON body of the normal (2xx) answer after the request was
   * handled, e.g. a `totalCount` that changes while paging, ids repeated across pages or a
   * page far larger than asked for. Gets the parsed body and the request's query; in-process only.
   */
  transform?: (body: unknown, query: Record<string, string>) => unknown;
}

export const FAULT_KINDS: readonly FaultKind[] = [
  'status',
  'latency',
  'drop',
  'notJson',
  'truncated',
  'slowBody',
  'wrongContentType',
  'html',
  'empty200',
  'body',
  'redirect',
  'transform',
];

/** Kinds after which the request is still handled (and counted) as usual. */
const PASS_THROUGH: ReadonlySet<FaultKind> = new Set([
  'latency',
  'slowBody',
  'truncated',
  'wrongContentType',
  'transform',
]);

export function isPassThrough(kind: FaultKind): boolean {
  return PASS_THROUGH.has(kind);
}

interface ActiveRule {
  rule: FaultRule;
  remaining: number;
}

export class FaultSet {
  private rules: ActiveRule[] = [];

  add(rule: FaultRule): void {
    if (!FAULT_KINDS.includes(rule.kind)) throw new Error(`Unknown fault kind: ${String(rule.kind)}`);
    this.rules.push({ rule: { ...rule }, remaining: rule.times ?? Infinity });
  }

  clear(): void {
    this.rules = [];
  }

  /** The first rule matching the request (its `times` is used up by one), if any. */
  take(method: string, fullPath: string, pathAfterV1: string | undefined): FaultRule | undefined {
    const active = this.rules.find((r) => r.remaining > 0 && matches(r.rule, method, fullPath, pathAfterV1));
    if (!active) return undefined;
    active.remaining -= 1;
    if (active.remaining <= 0) this.rules = this.rules.filter((r) => r !== active);
    return active.rule;
  }
}

function matches(rule: FaultRule, method: string, fullPath: string, pathAfterV1: string | undefined): boolean {
  if (rule.method !== undefined && rule.method.toUpperCase() !== method.toUpperCase()) return false;
  const path = rule.path;
  if (path === undefined) return true;
  const local = pathAfterV1 ?? fullPath;
  if (typeof path === 'string') return local.startsWith(path);
  path.lastIndex = 0;
  if (path.test(local)) return true;
  path.lastIndex = 0;
  return path.test(fullPath);
}

export interface FaultAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

const HTML_PAGE = `<!DOCTYPE html>
<html><head><title>502 Bad Gateway</title></head>
<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>
`;

/** The answer for a kind that replaces the normal one (not 'drop' and not pass-through kinds). */
export function faultAnswer(rule: FaultRule, requestUrl: string): FaultAnswer {
  const extra = rule.headers ?? {};
  switch (rule.kind) {
    case 'status': {
      const status = rule.status ?? 500;
      const body =
        rule.body !== undefined
          ? rule.body
          : { error: { code: 'injected_fault', message: `Injected fault: HTTP ${status}` } };
      const noBody = status === 204 || status === 304;
      return {
        status,
        headers: { 'Content-Type': JSON_TYPE, ...extra },
        body: noBody ? '' : (rule.rawBody ?? JSON.stringify(body)),
      };
    }
    case 'body':
      return {
        status: rule.status ?? 200,
        headers: { 'Content-Type': JSON_TYPE, ...extra },
        body: JSON.stringify(rule.body ?? null),
      };
    case 'notJson':
      return { status: rule.status ?? 200, headers: { 'Content-Type': JSON_TYPE, ...extra }, body: 'this is not json' };
    case 'html':
      return {
        status: rule.status ?? 502,
        headers: { 'Content-Type': 'text/html; charset=utf-8', ...extra },
        body: HTML_PAGE,
      };
    case 'empty200':
      return { status: 200, headers: { 'Content-Type': JSON_TYPE, ...extra }, body: '' };
    case 'redirect':
      return { status: rule.status ?? 302, headers: { Location: rule.location ?? requestUrl, ...extra }, body: '' };
    default:
      throw new Error(`Fault kind ${rule.kind} does not replace the answer`);
  }
}
