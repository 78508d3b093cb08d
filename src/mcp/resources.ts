// What the MCP server offers besides its tools, for a client to attach as context: one
// engagement (`eus://engagements/{id}`) and the usage of one billing period
// (`eus://usage/{period}`, `YYYY-MM` or `current`), as the service's JSON, read when the client
// reads it; the current period's usage is listed as a resource of its own. Every text goes
// through the key's redaction, as the tools' answers do.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../api/errorText';
import { redact } from '../api/redact';
import { choosePeriod, currentPeriod } from '../core/period';
import type { ToolHost } from '../tools/host';

const ENGAGEMENT = /^eus:\/\/engagements\/([^/?#]+)$/;
const USAGE = /^eus:\/\/usage\/([^/?#]+)$/;
const JSON_TYPE = 'application/json';

/** Why a resource cannot be read, in words, with the JSON-RPC error code it is sent with. */
class Refused extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** `eus://usage/2026-11` */
export function usageUri(period: string): string {
  return `eus://usage/${period}`;
}

/** The resource a URI names, read: its JSON text. Refuses in words a URI it does not serve. */
export async function readResource(host: ToolHost, uri: string): Promise<string> {
  const target = await host.resolve(undefined);
  const engagement = ENGAGEMENT.exec(uri);
  const usage = USAGE.exec(uri);
  if (!engagement && !usage)
    throw new Refused(
      ErrorCode.InvalidParams,
      `No resource “${uri.slice(0, 200)}”: this server serves eus://engagements/{id} and eus://usage/{period}.`,
    );
  try {
    if (engagement) {
      const id = decodeURIComponent(engagement[1]);
      return JSON.stringify(await target.api.engagements.get(id), null, 2);
    }
    const asked = decodeURIComponent(usage![1]);
    const chosen = asked === 'current' ? { ok: true as const, period: currentPeriod() } : choosePeriod(asked);
    if (!chosen.ok)
      throw new Refused(
        ErrorCode.InvalidParams,
        chosen.reason === 'future'
          ? `${asked} has not begun: its usage cannot be read yet.`
          : `“${asked.slice(0, 40)}” is not a billing period: use YYYY-MM, or current.`,
      );
    return JSON.stringify(await target.api.usage.summary(chosen.period), null, 2);
  } catch (error) {
    if (error instanceof Refused) throw error;
    throw new Refused(ErrorCode.InternalError, describeError(error, target.env.label, 'agent'));
  }
}

/** Serves the resources of `host` on `server` (call before connecting it). */
export function registerResources(server: Server, host: ToolHost, key: string): void {
  server.registerCapabilities({ resources: {} });
  const label = host.labelOf(undefined) ?? '';
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [
      {
        uri: usageUri('current'),
        name: 'usage-current',
        title: `Usage of the current billing period (${label})`,
        description: 'The meters (calls, webhooks, storage) of the current billing period: used, included, overage.',
        mimeType: JSON_TYPE,
      },
    ],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: 'eus://engagements/{id}',
        name: 'engagement',
        title: 'Engagement',
        description: `One engagement of ${label}, by its id, as the service holds it now.`,
        mimeType: JSON_TYPE,
      },
      {
        uriTemplate: 'eus://usage/{period}',
        name: 'usage',
        title: 'Usage of a billing period',
        description: `The meters of ${label} in one billing period: YYYY-MM, or current.`,
        mimeType: JSON_TYPE,
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    try {
      const text = await readResource(host, uri);
      return { contents: [{ uri, mimeType: JSON_TYPE, text: redact(text, key) }] };
    } catch (error) {
      if (error instanceof Refused) throw new McpError(error.code, redact(error.message, key));
      throw error;
    }
  });
}
