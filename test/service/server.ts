// The reference implementation of the Engagement and Usage Service: a real HTTP (or HTTPS)
// server on a loopback address with seeded data, live per-key call counting, request and
// connection recording and fault injection. Node built-ins only, so it can be bundled into
// any test (no `vscode`).
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FaultRule } from './faults';
import type { KeySpec, Scope } from './types';
import type { Reply } from './replies';
import type { Answer, DeliveryMode, TimerSource } from './respond';
import { FaultSet, faultAnswer, isPassThrough } from './faults';
import { errorReply } from './replies';
import { deliver, Timers } from './respond';
import { resolve } from './routes';
import type { Reading } from './readings';
import { errorBodyText } from './readings';
import { DEMO_KEYS } from './seed';
import { ServiceStore } from './store';

export type { FaultKind, FaultRule } from './faults';
export type { KeySpec, Scope } from './types';
export type { Reading, ReadingName } from './readings';
export { READINGS, READING_NAMES } from './readings';
export { ServiceStore } from './store';
export { NAME_MAX_LENGTH } from './types';
export { FRAMEWORK_ERRORS, type FrameworkErrors } from './errorFormats';

export interface ServiceOptions {
  /** 0 (default) = an ephemeral port. */
  port?: number;
  /** PRNG seed of the demo data; default 42. */
  seed?: number;
  /** Initial latency added to every request (see setLatency). */
  latencyMs?: number;
  /** Number of seeded engagements; default 60. */
  engagementCount?: number;
  /** The service clock; default the real one. */
  now?: () => Date;
  /** What times latency and a slow body; default the real timers (tests: a clock they move). */
  timers?: TimerSource;
  /** How the service fills in what the contract leaves open (see readings.ts); default ours. */
  reading?: Reading;
  /** The loopback address to listen on; default 127.0.0.1 (VS Code never proxies it: the proxy tests use 127.0.0.2). */
  host?: string;
  /** Listen with HTTPS, presenting this key and certificate chain (PEM; see scripts/vscode/tls.mjs). */
  tls?: { key: string; cert: string };
}

/** Connections the service accepted since it started or was reset (live). */
export interface ConnectionCounts {
  /** TCP connections accepted. */
  tcp: number;
  /** TLS handshakes completed (HTTPS only): a new one per request means no connection was reused. */
  tls: number;
  /** Handshakes that failed, by the code Node gave on the server's side (e.g. ECONNRESET when the client refused the certificate). */
  handshakeFailures: string[];
}

export interface RecordedRequest {
  method: string;
  /** Raw path including /v1, still URL-encoded, without the query. */
  path: string;
  query: Record<string, string>;
  authorization?: string;
  /** The User-Agent header as sent. */
  userAgent?: string;
  /** The Origin header: sent by a browser (VS Code for the Web's web worker), never by Node's extension host. */
  origin?: string;
  /** Parsed JSON body, or the raw text when it is not JSON; absent when no body was sent. */
  body?: unknown;
  /** The status answered; 0 while in flight and for dropped requests. */
  status: number;
  /** The key's id when the Authorization header held a known key (also for faulted requests). */
  keyId?: string;
  /** Date.now() when the request arrived. */
  at: number;
}

export interface DemoKeys {
  admin: string;
  readOnly: string;
  usageOnly: string;
  noUsage: string;
  writer: string;
}

export interface RunningService {
  /** `http://127.0.0.1:<port>` (`https://…` with `tls`, the host as asked). */
  url: string;
  baseUrl: string;
  keys: DemoKeys;
  /** The keys the service accepts right now (live view of store.keys). */
  keySpecs: KeySpec[];
  requests: RecordedRequest[];
  clearRequests(): void;
  /** Connections accepted (live; reset() zeroes them). */
  readonly connections: ConnectionCounts;
  faults: { add(rule: FaultRule): void; clear(): void };
  setLatency(ms: number): void;
  /**
   * Holds every answer (those already waiting and those to come) until the returned function
   * is called: a test sees the client busy for as long as it needs, then lets it go at once.
   */
  holdAnswers(): () => void;
  /** Switches the reading at once (kept by reset()). */
  setReading(reading: Reading): void;
  readonly reading: Reading;
  store: ServiceStore;
  reset(): void;
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const MAX_BODY_BYTES = 10 * 1024 * 1024;

function demoKeys(): DemoKeys {
  return {
    admin: DEMO_KEYS.admin.key,
    readOnly: DEMO_KEYS.readOnly.key,
    usageOnly: DEMO_KEYS.usageOnly.key,
    noUsage: DEMO_KEYS.noUsage.key,
    writer: DEMO_KEYS.writer.key,
  };
}

function firstValues(params: URLSearchParams): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of params) if (!Object.hasOwn(result, name)) result[name] = value;
  return result;
}

function parseBodyForRecord(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function readBody(req: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  return new Promise((done) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => done({ text: Buffer.concat(chunks).toString('utf8'), tooLarge: size > MAX_BODY_BYTES }));
    const partial = (): void => done({ text: Buffer.concat(chunks).toString('utf8'), tooLarge: size > MAX_BODY_BYTES });
    req.on('error', partial);
    req.on('close', partial);
  });
}

/** The 'transform' fault: the handled 2xx answer's body, rewritten by the rule. */
function transformed(fault: FaultRule | undefined, reply: Reply, query: Record<string, string>): Reply {
  if (fault?.kind !== 'transform' || !fault.transform || reply.status >= 300 || reply.body === undefined) return reply;
  return { ...reply, body: fault.transform(structuredClone(reply.body), query) };
}

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1];
}

export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const now = options.now ?? (() => new Date());
  const store = new ServiceStore({ seed: options.seed ?? 42, engagementCount: options.engagementCount ?? 60, now });
  const faults = new FaultSet();
  const requests: RecordedRequest[] = [];
  let latencyMs = options.latencyMs ?? 0;
  /** Answers wait on this while a test holds them (holdAnswers). */
  let held: { promise: Promise<void>; release: () => void } | undefined;
  let reading: Reading = options.reading ?? {};
  const timers = new Timers(options.timers);
  let closed = false;
  let requestCounter = 0;
  let url = '';

  /** Authentication, scope, live counting and the handler: the service proper. */
  function handle(
    req: IncomingMessage,
    record: RecordedRequest,
    rawPath: string,
    local: string | undefined,
    query: URLSearchParams,
    bodyText: string,
  ): Reply {
    const method = req.method ?? 'GET';
    const route = resolve(method, local);
    if (route.kind === 'notFound') return errorReply(404, 'not_found', `No such endpoint: ${method} ${rawPath}`);
    if (route.kind === 'methodNotAllowed') {
      return errorReply(405, 'method_not_allowed', `${method} is not allowed on ${rawPath}`, undefined, {
        Allow: route.allow.join(', '),
      });
    }
    const token = bearerToken(record.authorization);
    const key = token === undefined ? undefined : store.findKey(token);
    if (!key) {
      const message =
        token === undefined ? 'Missing bearer token in the Authorization header' : 'The API key is not valid';
      return errorReply(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer' });
    }
    const at = now();
    store.recordCall(key, at);
    const scope: Scope = route.endpoint.scope;
    if (!key.scopes.includes(scope)) {
      return errorReply(
        403,
        'insufficient_scope',
        `This API key lacks the scope ${scope}`,
        { requiredScope: scope },
        {
          'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
        },
      );
    }
    const input = {
      query,
      bodyText,
      contentType: req.headers['content-type'],
      now: at,
      store,
      reading,
      ifMatch: req.headers['if-match'],
      ifUnmodifiedSince: req.headers['if-unmodified-since'],
    };
    return route.endpoint.handler(route.id === undefined ? input : { ...input, id: route.id });
  }

  function toAnswer(reply: Reply, id: string, request: { method: string; path: string }): Answer {
    const headers: Record<string, string> = {
      // When it answered, by the service's clock (a test may move it).
      Date: now().toUTCString(),
      'Content-Type': JSON_TYPE,
      'Cache-Control': 'no-store',
      'X-Request-Id': id,
      ...reply.headers,
    };
    // A failure is written the way the reading says (text, a page, a framework's form).
    const written = reply.status >= 400 ? errorBodyText(reading, reply, request) : undefined;
    if (written)
      return {
        status: written.status,
        headers: { ...headers, 'Content-Type': written.contentType },
        body: written.text,
      };
    if (reply.body === undefined) delete headers['Content-Type'];
    return { status: reply.status, headers, body: reply.body === undefined ? '' : JSON.stringify(reply.body) };
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.on('error', () => undefined);
    const rawUrl = req.url ?? '/';
    const queryStart = rawUrl.indexOf('?');
    const rawPath = queryStart < 0 ? rawUrl : rawUrl.slice(0, queryStart);
    const query = new URLSearchParams(queryStart < 0 ? '' : rawUrl.slice(queryStart + 1));
    const method = req.method ?? 'GET';
    const record: RecordedRequest = { method, path: rawPath, query: firstValues(query), status: 0, at: Date.now() };
    if (req.headers.authorization !== undefined) record.authorization = req.headers.authorization;
    if (req.headers['user-agent'] !== undefined) record.userAgent = req.headers['user-agent'];
    if (req.headers.origin !== undefined) record.origin = req.headers.origin;
    const sentKey = store.findKey(bearerToken(record.authorization) ?? '');
    if (sentKey) record.keyId = sentKey.keyId;
    requests.push(record);
    const id = `req_${++requestCounter}`;

    // CORS, for a page in a browser (VS Code for the Web): the origin asking is allowed, with the
    // headers and methods the contract needs; a preflight is answered here, before any key is asked.
    const origin = req.headers.origin;
    const cors: Record<string, string> =
      origin && !reading.noCors
        ? {
            'Access-Control-Allow-Origin': origin,
            'Access-Control-Expose-Headers': 'ETag, Location, Retry-After',
            Vary: 'Origin',
          }
        : {};
    if (method === 'OPTIONS' && origin && req.headers['access-control-request-method']) {
      record.status = 204;
      const allow = reading.noCors
        ? {}
        : {
            'Access-Control-Allow-Methods': 'GET, POST, PATCH',
            'Access-Control-Allow-Headers': 'Authorization, Content-Type, If-Match, If-Unmodified-Since',
            'Access-Control-Max-Age': '600',
          };
      res.writeHead(204, { ...cors, ...allow });
      res.end();
      return;
    }
    const body = await readBody(req);
    if (body.text !== '') record.body = parseBodyForRecord(body.text);
    const local = rawPath === '/v1' ? '' : rawPath.startsWith('/v1/') ? rawPath.slice(3) : undefined;
    const fault = faults.take(method, rawPath, local);
    const delay = latencyMs + (fault?.kind === 'latency' ? (fault.ms ?? 0) : 0);
    if (delay > 0) await timers.sleep(delay);
    if (held) await held.promise;
    if (closed) return;

    if (fault?.kind === 'drop') {
      req.socket.destroy();
      return;
    }
    let answer: Answer;
    let mode: DeliveryMode = 'normal';
    const request = { method, path: rawPath };
    if (fault && !isPassThrough(fault.kind)) {
      answer = faultAnswer(fault, `${url}${rawUrl}`);
      // A failure injected without a body of its own is written in the reading's form too (a 429 as the framework says it).
      if (fault.kind === 'status' && fault.body === undefined && fault.rawBody === undefined && answer.status >= 400)
        answer = toAnswer(
          { status: answer.status, body: JSON.parse(answer.body), headers: fault.headers },
          id,
          request,
        );
    } else if (body.tooLarge) {
      answer = toAnswer(errorReply(413, 'payload_too_large', 'The request body is too large'), id, request);
    } else {
      answer = toAnswer(
        transformed(fault, handle(req, record, rawPath, local, query, body.text), record.query),
        id,
        request,
      );
      if (fault?.kind === 'wrongContentType') answer.headers['Content-Type'] = 'text/plain; charset=utf-8';
      if (fault?.kind === 'truncated' || fault?.kind === 'slowBody') mode = fault.kind;
      if (fault) Object.assign(answer.headers, fault.headers);
    }
    record.status = answer.status;
    Object.assign(answer.headers, cors);
    deliver(res, answer, mode, timers, fault?.ms ?? 0);
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    onRequest(req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'Content-Type': JSON_TYPE });
        res.end(JSON.stringify({ error: { code: 'internal', message: String(error) } }));
      }
    });
  };
  const server = options.tls
    ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, listener)
    : http.createServer(listener);
  server.keepAliveTimeout = 5000;
  const connections: ConnectionCounts = { tcp: 0, tls: 0, handshakeFailures: [] };
  server.on('connection', () => connections.tcp++);
  server.on('secureConnection', () => connections.tls++);
  server.on('tlsClientError', (error: Error & { code?: string }) =>
    connections.handshakeFailures.push(error.code ?? error.message),
  );

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((ready, failed) => {
    server.once('error', failed);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', failed);
      ready();
    });
  });
  const address = server.address() as AddressInfo;
  url = `${options.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${address.port}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    baseUrl: `${url}/v1`,
    keys: demoKeys(),
    get keySpecs() {
      return store.keys;
    },
    requests,
    clearRequests: () => {
      requests.length = 0;
    },
    connections,
    faults: { add: (rule) => faults.add(rule), clear: () => faults.clear() },
    setLatency: (ms) => {
      latencyMs = Math.max(0, ms);
    },
    holdAnswers: () => {
      if (!held) {
        let release = () => {};
        const promise = new Promise<void>((resolve) => (release = resolve));
        held = { promise, release };
      }
      const hold = held;
      return () => {
        if (held === hold) held = undefined;
        hold.release();
      };
    },
    setReading: (next) => {
      reading = next;
    },
    get reading() {
      return reading;
    },
    store,
    reset: () => {
      store.reset();
      faults.clear();
      latencyMs = 0;
      requests.length = 0;
      Object.assign(connections, { tcp: 0, tls: 0, handshakeFailures: [] });
    },
    close: () => {
      closing ??= new Promise<void>((done) => {
        closed = true;
        held?.release();
        timers.stopAll();
        server.close(() => done());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
