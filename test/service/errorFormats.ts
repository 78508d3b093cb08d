// The reference service's own failures (401, 403, 404, 400/422 naming fields, 409/412, 429
// from a fault…) said the way a service built on a framework says them: that framework's
// body, content type and status code. A reading picks one (`errorBodies`); the client must
// read every one of them, and a user must see the same reasons beside the same input boxes.

export const FRAMEWORK_ERRORS = [
  'problem',
  'jsonapi',
  'fastapi',
  'google',
  'rails',
  'aspnet',
  'spring',
  'django',
  'graphql',
] as const;

export type FrameworkErrors = (typeof FRAMEWORK_ERRORS)[number];

/** One failure of the service, as its handlers make it (`{error: {code, message, fields, requiredScope}}`). */
export interface ServiceError {
  status: number;
  code: string;
  message: string;
  /** The fields a 400/422 names, with why. */
  fields?: Record<string, string>;
  requiredScope?: string;
  method: string;
  /** The request's path, e.g. `/v1/engagements`. */
  path: string;
}

export interface RenderedError {
  status: number;
  contentType: string;
  text: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

const PHRASES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

const phrase = (status: number) => PHRASES[status] ?? 'Error';

/** Where the fields a failure names were: the request's body, or its query (`page`, `pageSize`, `billingPeriod`). */
function fieldsOf(error: ServiceError): { in: 'body' | 'query'; entries: Array<[string, string]> } | undefined {
  if (!error.fields || !Object.keys(error.fields).length) return undefined;
  return { in: error.code === 'invalid_parameter' ? 'query' : 'body', entries: Object.entries(error.fields) };
}

/** "name must not be empty" → "must not be empty": frameworks that say the attribute apart drop it from the message. */
function bare(field: string, message: string): string {
  return message.startsWith(`${field} `) ? message.slice(field.length + 1) : message;
}

const json = (status: number, body: unknown, contentType = JSON_TYPE): RenderedError => ({
  status,
  contentType,
  text: JSON.stringify(body),
});

/** The failure in the body, content type and status code `format` answers with. */
export function renderError(format: FrameworkErrors, error: ServiceError): RenderedError {
  return RENDER[format](error);
}

const RENDER: Record<FrameworkErrors, (error: ServiceError) => RenderedError> = {
  /** RFC 9457 problem details: body fields as an `errors` extension, query parameters as `invalid-params` (RFC 7807's). */
  problem(error) {
    const fields = fieldsOf(error);
    const body: Record<string, unknown> = {
      type: `https://errors.example.test/${error.code}`,
      title: phrase(error.status),
      status: error.status,
      detail: error.message,
      instance: error.path,
    };
    if (fields?.in === 'body') body.errors = fields.entries.map(([f, m]) => ({ detail: m, pointer: `#/${f}` }));
    if (fields?.in === 'query') body['invalid-params'] = fields.entries.map(([name, reason]) => ({ name, reason }));
    if (error.requiredScope) body.requiredScope = error.requiredScope;
    return json(error.status, body, 'application/problem+json');
  },

  /** JSON:API: one error object per field, pointing at the attribute or naming the parameter. */
  jsonapi(error) {
    const fields = fieldsOf(error);
    const errors = fields
      ? fields.entries.map(([f, m]) => ({
          status: String(error.status),
          code: error.code,
          title: fields.in === 'body' ? 'Invalid Attribute' : 'Invalid Query Parameter',
          detail: m,
          source: fields.in === 'body' ? { pointer: `/data/attributes/${f}` } : { parameter: f },
        }))
      : [
          {
            status: String(error.status),
            code: error.code,
            title: phrase(error.status),
            detail: error.message,
            ...(error.requiredScope ? { meta: { requiredScope: error.requiredScope } } : {}),
          },
        ];
    return json(error.status, { jsonapi: { version: '1.1' }, errors }, 'application/vnd.api+json');
  },

  /** FastAPI: pydantic's 422 `detail[]` with `loc`, otherwise HTTPException's `{detail: "…"}`. */
  fastapi(error) {
    const fields = fieldsOf(error);
    if (!fields) return json(error.status, { detail: error.message });
    return json(422, {
      detail: fields.entries.map(([f, m]) => ({ type: 'value_error', loc: [fields.in, f], msg: m })),
    });
  },

  /** Google APIs: `{error: {code, message, status, details}}`, field violations in a `google.rpc.BadRequest`. */
  google(error) {
    const fields = fieldsOf(error);
    // Google says INVALID_ARGUMENT with 400, and ABORTED (409) for an etag that no longer matches.
    const status = fields || error.status === 422 ? 400 : error.status === 412 ? 409 : error.status;
    const snake = (f: string) => f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const details: unknown[] = [];
    if (fields)
      details.push({
        '@type': 'type.googleapis.com/google.rpc.BadRequest',
        fieldViolations: fields.entries.map(([f, m]) => ({
          field: fields.in === 'body' ? `engagement.${snake(f)}` : snake(f),
          description: m,
        })),
      });
    if (status === 401 || status === 403)
      details.push({
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: status === 401 ? 'API_KEY_INVALID' : 'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
        domain: 'engagements.example.test',
        metadata: error.requiredScope ? { requiredScope: error.requiredScope } : {},
      });
    return json(status, {
      error: {
        code: status,
        message: fields ? 'Request contains an invalid argument.' : error.message,
        status: GOOGLE_STATUS[status] ?? 'UNKNOWN',
        ...(details.length ? { details } : {}),
      },
    });
  },

  /** Rails: `{errors: {field: [..]}}` for a model, `{errors: [..]}` (full messages) for parameters, `{error: "…"}` otherwise. */
  rails(error) {
    const fields = fieldsOf(error);
    if (fields?.in === 'body')
      return json(422, { errors: Object.fromEntries(fields.entries.map(([f, m]) => [f, [bare(f, m)]])) });
    if (fields) return json(400, { errors: fields.entries.map(([, m]) => m) });
    return json(error.status, { error: error.message });
  },

  /** ASP.NET Core: a validation problem (400) keyed by property (`Name`) or JSON path (`$.name`); ProblemDetails otherwise. */
  aspnet(error) {
    const fields = fieldsOf(error);
    const traceId = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00';
    const type = 'application/problem+json; charset=utf-8';
    if (fields) {
      const key = (f: string, m: string) =>
        fields.in === 'query' ? f : / must be a string$/.test(m) ? `$.${f}` : f.charAt(0).toUpperCase() + f.slice(1);
      return json(
        400,
        {
          type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
          title: 'One or more validation errors occurred.',
          status: 400,
          errors: Object.fromEntries(fields.entries.map(([f, m]) => [key(f, m), [m]])),
          traceId,
        },
        type,
      );
    }
    return json(
      error.status,
      {
        type: RFC9110[error.status] ?? 'about:blank',
        title: phrase(error.status),
        status: error.status,
        detail: error.message,
        traceId,
      },
      type,
    );
  },

  /** Spring Boot's error attributes, with the binding result's `errors[]` on a validation failure (400). */
  spring(error) {
    const fields = fieldsOf(error);
    const status = fields ? 400 : error.status;
    const objectName = fields?.in === 'query' ? 'pageRequest' : 'engagementRequest';
    return json(status, {
      timestamp: new Date().toISOString(),
      status,
      error: phrase(status),
      message: fields
        ? `Validation failed for object='${objectName}'. Error count: ${fields.entries.length}`
        : error.message,
      ...(fields
        ? {
            errors: fields.entries.map(([f, m]) => ({
              codes: [`Invalid.${objectName}.${f}`, `Invalid.${f}`, 'Invalid'],
              arguments: null,
              defaultMessage: bare(f, m),
              objectName,
              field: f,
              rejectedValue: null,
              bindingFailure: false,
              code: 'Invalid',
            })),
          }
        : {}),
      path: error.path,
    });
  },

  /** Django REST framework: `{field: [..]}` (400), `non_field_errors` for a body that is not an object, `{detail: "…"}` otherwise. */
  django(error) {
    const fields = fieldsOf(error);
    if (fields) return json(400, Object.fromEntries(fields.entries.map(([f, m]) => [f, [m]])));
    if (error.code === 'invalid_body') return json(400, { non_field_errors: [error.message] });
    return json(error.status, { detail: error.message });
  },

  /** A GraphQL service behind a REST gateway: `{errors: [{message, path, extensions}], data: null}`, the status mapped. */
  graphql(error) {
    const fields = fieldsOf(error);
    const status = fields ? 400 : error.status;
    const operation =
      error.method === 'POST' ? 'createEngagement' : error.method === 'PATCH' ? 'updateEngagement' : undefined;
    const errors = fields
      ? fields.entries.map(([f, m]) => ({
          message: m,
          ...(operation ? { path: [operation] } : {}),
          extensions: { code: 'BAD_USER_INPUT', field: f },
        }))
      : [
          {
            message: error.message,
            extensions: {
              code: GRAPHQL_CODE[status] ?? 'INTERNAL_SERVER_ERROR',
              ...(error.requiredScope ? { requiredScope: error.requiredScope } : {}),
            },
          },
        ];
    return json(status, { errors, data: null });
  },
};

const GOOGLE_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'UNIMPLEMENTED',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

const RFC9110: Record<number, string> = {
  400: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
  401: 'https://tools.ietf.org/html/rfc9110#section-15.5.2',
  403: 'https://tools.ietf.org/html/rfc9110#section-15.5.4',
  404: 'https://tools.ietf.org/html/rfc9110#section-15.5.5',
  405: 'https://tools.ietf.org/html/rfc9110#section-15.5.6',
  409: 'https://tools.ietf.org/html/rfc9110#section-15.5.10',
  412: 'https://tools.ietf.org/html/rfc9110#section-15.5.13',
  413: 'https://tools.ietf.org/html/rfc9110#section-15.5.14',
  422: 'https://tools.ietf.org/html/rfc9110#section-15.5.21',
  429: 'https://tools.ietf.org/html/rfc6585#section-4',
  500: 'https://tools.ietf.org/html/rfc9110#section-15.6.1',
};

const GRAPHQL_CODE: Record<number, string> = {
  400: 'BAD_USER_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  412: 'CONFLICT',
  429: 'RATE_LIMITED',
};
