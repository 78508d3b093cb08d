// What a 2xx write's answer means when it carries no whole engagement: reading back what it
// named (or searching for a create), and telling a write made, accepted for later (202) or
// not made after all.
import { ApiError, isApiError } from './errors';
import type { WriteAnswer } from './readings';
import type { AcceptedWrite, Engagement, WriteOutcome, WriteSource } from './types';

/**
 * The result of a 2xx write: what it answered, or what reading back found. After a 202
 * (accepted for processing) a read-back that finds nothing, or finds the change not made yet,
 * or fails (a 404: it is not there yet) is `accepted`: to be looked for again. Otherwise a
 * read-back that shows the change was not made (nothing matching a create; a PATCH's fields
 * not there) is a failure with nothing applied.
 */
export async function settleWrite(
  answer: WriteAnswer<Engagement>,
  accepted: AcceptedWrite,
  readBack: () => Promise<{ engagement: Engagement; source: WriteSource } | undefined>,
  holds: (engagement: Engagement) => boolean = () => true,
): Promise<WriteOutcome> {
  if (answer.resource) return { engagement: answer.resource, source: 'answer', accepted: answer.status === 202 };
  if (answer.status === 202) {
    const found = await readBack().catch((error: unknown) => {
      if (isApiError(error) && error.kind === 'cancelled') throw error;
      return undefined;
    });
    return found && holds(found.engagement) ? { ...found, accepted: true } : accepted;
  }
  let found: { engagement: Engagement; source: WriteSource } | undefined;
  try {
    found = await readBack();
  } catch (error) {
    throw new ApiError(
      'badResponse',
      'The service answered that the change was made, but reading the result back failed.',
      {
        endpoint: error instanceof ApiError ? error.endpoint : undefined,
        detail: `${answer.unreadable ?? 'no body'}; reading back: ${error instanceof Error ? error.message : String(error)}`,
        writeOutcome: 'applied',
        cause: error,
      },
    );
  }
  if (!found || !holds(found.engagement)) {
    throw new ApiError(
      'badResponse',
      'The service answered that the change was made, but reading it back shows it was not.',
      {
        status: answer.status,
        detail: `HTTP ${answer.status} with ${answer.unreadable ?? 'no body'}; ${found ? 'the engagement read back does not hold the change' : 'no engagement with the name and type sent was found'}`,
      },
    );
  }
  return { ...found, accepted: false };
}
