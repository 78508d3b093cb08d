// The faults every endpoint is tried with, what each must lead to, and the checks shared by
// the fault suites: requests counted where the service received them (GETs retried within
// their bounds, POST and PATCH never sent again by the extension).
import assert from 'node:assert/strict';
import type { FaultRule, RecordedRequest } from '../../service/server';
import { figures } from './reliabilityKit';
import { onNewest } from './versions';

export interface FaultCase {
  name: string;
  rule: Omit<FaultRule, 'method' | 'path' | 'times'>;
  /** The ApiError kind the extension must report. */
  kind: string;
  /** Whether the client retries a GET that fails this way (2 retries: 3 requests in all). */
  retried: boolean;
  /** In the sentence the user reads (describeError), wherever the failure is shown. */
  said: RegExp;
  /**
   * What a POST or PATCH that meets this fault comes to: `failed` (certainly not made: Retry
   * offered at once), `notMade` (outcome unknown, checked, not made: Retry offered), `refused`
   * (a 2xx whose read-back shows nothing made: Retry offered), `made` (the check finds it made:
   * shown, no error).
   */
  write: 'failed' | 'notMade' | 'refused' | 'made';
}

/** Request timeout used by the fault suites, and the latency that goes beyond it. */
export const TIMEOUT_SECONDS = 2;

/** A 429: a write is certainly not made. */
const RATE_LIMITED = { kind: 'rateLimited', write: 'failed' } as const;

/** A 5xx status from the service: said with its number; a write it meets is checked and found not made. */
function serviceFailed(status: number, retried: boolean, said: RegExp): FaultCase {
  return {
    name: String(status),
    rule: { kind: 'status', status },
    kind: 'server',
    retried,
    said,
    write: 'notMade',
  };
}

/** What an answer the extension cannot read leads to: said so, not retried, a write read back and found not made. */
const NOT_UNDERSTOOD = {
  kind: 'badResponse',
  retried: false,
  said: /in a form this extension does not understand; details are in the log/,
  write: 'refused',
} as const;

const EVERY_FAULT: readonly FaultCase[] = [
  {
    name: 'latency beyond the timeout',
    // The answer comes 1 s after the timeout, and a write lands then: within the extension's
    // patience after a timed-out write (the timeout again, 2 s), with 1 s to spare either way
    // (at 1.5 s a check under load ended before the rename landed, on 1.100.3 in CI).
    rule: { kind: 'latency', ms: TIMEOUT_SECONDS * 1000 + 1000 },
    kind: 'timeout',
    retried: false,
    said: /did not answer in time/,
    write: 'made',
  },
  {
    name: '429 without Retry-After',
    rule: { kind: 'status', status: 429 },
    ...RATE_LIMITED,
    retried: true,
    said: /limiting requests \(429\)\. Wait a little/,
  },
  {
    name: '429 with Retry-After: 1',
    rule: { kind: 'status', status: 429, headers: { 'Retry-After': '1' } },
    ...RATE_LIMITED,
    retried: true,
    said: /limiting requests \(429\)\. It can be tried again in 1 s/,
  },
  {
    name: '429 with Retry-After: 3600 (not waited for)',
    rule: { kind: 'status', status: 429, headers: { 'Retry-After': '3600' } },
    ...RATE_LIMITED,
    retried: false,
    said: /tried again in 3600 s/,
  },
  serviceFailed(500, false, /The service failed \(HTTP 500\): Injected fault/),
  serviceFailed(502, true, /The service failed \(HTTP 502\)/),
  serviceFailed(503, true, /The service failed \(HTTP 503\)/),
  {
    name: 'dropped connection',
    rule: { kind: 'drop' },
    kind: 'network',
    retried: true,
    said: /The connection to 127\.0\.0\.1:\d+ closed before an answer came \(UND_ERR_SOCKET\)/,
    write: 'notMade',
  },
  {
    name: 'body that is not JSON',
    rule: { kind: 'notJson' },
    ...NOT_UNDERSTOOD,
  },
  {
    name: 'JSON of the wrong shape',
    rule: { kind: 'body', body: { unexpected: true } },
    ...NOT_UNDERSTOOD,
  },
  {
    name: 'truncated body',
    rule: { kind: 'truncated' },
    kind: 'network',
    retried: false,
    said: /answer was cut off/,
    write: 'made',
  },
  {
    name: 'HTML error page (502)',
    rule: { kind: 'html' },
    kind: 'server',
    retried: true,
    said: /The service failed \(HTTP 502\): 502 Bad Gateway/,
    write: 'notMade',
  },
  {
    name: 'HTML page with 200',
    rule: { kind: 'html', status: 200 },
    ...NOT_UNDERSTOOD,
  },
  {
    name: 'empty 200',
    rule: { kind: 'empty200' },
    ...NOT_UNDERSTOOD,
  },
];

/**
 * On the newest VS Code (`--vscode newest`) the fault suites try the faults that take another
 * road through VS Code's fetch there (1.139's proxy agent keeps and reuses its connections,
 * 1.100's makes one per request): a timeout, a connection dropped or cut off mid-body, and a
 * retry after an error on the same connection. What the extension makes of a status code or a
 * body is decided in src/api, the same on both versions: every fault runs on the oldest.
 */
const NEWEST_FAULTS: readonly string[] = [
  'latency beyond the timeout',
  '429 with Retry-After: 1',
  '503',
  'dropped connection',
  'truncated body',
];
for (const name of NEWEST_FAULTS) {
  if (!EVERY_FAULT.some((f) => f.name === name)) throw new Error(`no fault "${name}"`);
}

/** The faults each endpoint is tried with on this VS Code. */
export const FAULTS: readonly FaultCase[] = onNewest
  ? EVERY_FAULT.filter((f) => NEWEST_FAULTS.includes(f.name))
  : EVERY_FAULT;

/** Requests the service received for a method and a path (after /v1). */
export function requestsTo(requests: readonly RecordedRequest[], method: string, path: RegExp): RecordedRequest[] {
  return requests.filter((r) => r.method === method && path.test(r.path.replace(/^\/v1/, '')));
}

/** A failed GET took 1 request, or 3 when the fault is one the client retries; `endpoints` GETs at once. */
export function expectGetBound(count: number, fault: FaultCase, endpoints = 1): void {
  const expected = (fault.retried ? 3 : 1) * endpoints;
  assert.equal(
    count,
    expected,
    `${fault.name}: ${expected} request(s) (${fault.retried ? 'retried twice' : 'not retried'}), got ${count}`,
  );
  const f = figures();
  f.getsFailed += endpoints;
  f.getRequests += count;
}

/** A failed write was sent exactly once before the user chose anything. */
export function expectSentOnce(count: number, fault: FaultCase): void {
  const f = figures();
  f.writesFailed += 1;
  f.writeRepeats += Math.max(0, count - 1);
  assert.equal(count, 1, `${fault.name}: a POST/PATCH is never sent again by the extension`);
}

export function countFault(): void {
  figures().faultsTried += 1;
}
