// The MCP server's prompts, which clients offer as slash commands: explain a billing period's
// usage (the period's meters attached as a resource when they can be read, then the tools to
// use for the rest), and triage stale engagements (found with the tools; nothing changed
// without the user's word). Each says which tools to call, so a whole task runs on them.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  type GetPromptResult,
  ListPromptsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { redact } from '../api/redact';
import { choosePeriod, currentPeriod } from '../core/period';
import { Tools } from '../tools/definitions';
import type { ToolHost } from '../tools/host';
import { readResource, usageUri } from './resources';

const PROMPTS = {
  explainUsage: 'explain-usage',
  triageStale: 'triage-stale-engagements',
} as const;

type Message = GetPromptResult['messages'][number];

const say = (text: string): Message => ({ role: 'user', content: { type: 'text', text } });

async function explainUsage(host: ToolHost, key: string, asked: string | undefined): Promise<GetPromptResult> {
  const chosen = asked?.trim() ? choosePeriod(asked) : { ok: true as const, period: currentPeriod() };
  if (!chosen.ok)
    throw new McpError(
      ErrorCode.InvalidParams,
      chosen.reason === 'future' ? 'period: that billing period has not begun.' : 'period: use YYYY-MM.',
    );
  const { period } = chosen;
  const messages: Message[] = [
    say(
      [
        `Explain the API usage of ${host.labelOf(undefined)} in the billing period ${period}, for someone who pays for it.`,
        `1. The meters (calls, webhooks, storage_gb): used against included, and any overage. Use ${Tools.usage} with view "summary" and billingPeriod "${period}"; for the current period, say that the estimate of the period's end is an estimate at the current pace.`,
        `2. Compare with the periods before (the 12-period trend in the same answer): name what changed most.`,
        `3. Which API keys made the calls: ${Tools.usage} with view "byKey".`,
        `4. If there are errors or an unusual pattern, look at the records: ${Tools.usage} with view "records" and statusClass "4xx" or "5xx".`,
        'End with two or three sentences: what drives the cost, and what to watch. Use only figures the tools returned.',
      ].join('\n'),
    ),
  ];
  try {
    const text = await readResource(host, usageUri(period));
    messages.push({
      role: 'user',
      content: {
        type: 'resource',
        resource: { uri: usageUri(period), mimeType: 'application/json', text: redact(text, key) },
      },
    });
  } catch {
    // Not readable now: the tools named above say why when the model calls them.
  }
  return { description: `Explain the usage of ${period}`, messages };
}

function triageStale(host: ToolHost, asked: string | undefined): GetPromptResult {
  const days = asked?.trim() ? Number(asked) : 30;
  if (!Number.isInteger(days) || days < 1 || days > 3650)
    throw new McpError(ErrorCode.InvalidParams, 'days: a whole number of days from 1 to 3650.');
  const before = new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  const text = [
    `Triage the stale engagements of ${host.labelOf(undefined)}: those still active that nobody has updated for ${days} days (updated before ${before}).`,
    `1. Find them: ${Tools.findEngagements} with status ["active"], updatedBefore "${before}", sort "updated", direction "asc".`,
    `2. For the few that look most stale, read each with ${Tools.getEngagement}: its description, type and evaluations.`,
    '3. Propose for each: keep it active (say why), complete it, or archive it. Show the list as a table: name, id, last update, evaluations, proposal.',
    `4. Change nothing unless the user says so. If they do, and ${Tools.updateEngagements} is offered, change the ones they name, giving in basedOn the updatedAt each was read with.`,
  ].join('\n');
  return { description: `Triage engagements not updated for ${days} days`, messages: [say(text)] };
}

/** Serves the prompts on `server` (call before connecting it). */
export function registerPrompts(server: Server, host: ToolHost, key: string): void {
  server.registerCapabilities({ prompts: {} });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: [
      {
        name: PROMPTS.explainUsage,
        title: 'Explain this period’s usage',
        description: 'Explains the API usage of a billing period: meters, overage, the trend, the keys behind it.',
        arguments: [{ name: 'period', description: 'YYYY-MM; the current period when left out', required: false }],
      },
      {
        name: PROMPTS.triageStale,
        title: 'Triage stale engagements',
        description: 'Finds active engagements nobody updated for a while and proposes what to do with each.',
        arguments: [{ name: 'days', description: 'Not updated for this many days (default 30)', required: false }],
      },
    ],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const args = request.params.arguments ?? {};
    if (request.params.name === PROMPTS.explainUsage) return explainUsage(host, key, args.period);
    if (request.params.name === PROMPTS.triageStale) return triageStale(host, args.days);
    throw new McpError(
      ErrorCode.InvalidParams,
      `No prompt “${request.params.name.slice(0, 100)}”: this server has ${Object.values(PROMPTS).join(' and ')}.`,
    );
  });
}
