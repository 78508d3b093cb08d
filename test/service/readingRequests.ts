// What a create costs under a reading, as the service logged it: the one expectation the Node
// table (test/unit/readings.test.ts) checks for every reading and the integration suite
// (test/integration/readings.test.ts) checks again for the readings whose write answers take
// another road through VS Code's fetch. Imports nothing of VS Code or of the extension.
import assert from 'node:assert/strict';
import { type Reading, acceptedDelay } from './readings';

/**
 * Checks the requests `log` (each "METHOD /path", everything the service saw since the create
 * was sent) of one create of engagement `id`: the POST alone when the answer was the
 * engagement; POST and one GET of it when the answer named it; one GET of it per look when the
 * service applied it later; the list searched, at most once per look and page, when nothing
 * named it. `mostLooks`: the looks for an accepted write (the one with its answer and one per
 * wait); `total`: the engagements the service holds (its list read in pages of 100).
 */
export function checkCreateRequests(
  reading: Reading,
  log: readonly string[],
  id: string,
  { mostLooks, total }: { mostLooks: number; total: number },
): void {
  const writes = reading.writes ?? 'body';
  const later = acceptedDelay(reading) > 0;
  const named = ['location', 'accepted', 'idOnly', 'partial'].includes(writes);
  const gets = log.filter((r) => r === `GET /v1/engagements/${id}`).length;
  const lists = log.filter((r) => r === 'GET /v1/engagements').length;
  assert.equal(log[0], 'POST /v1/engagements', 'the create first');
  assert.equal(log.filter((r) => r.startsWith('POST ')).length, 1, 'sent once');
  if (writes === 'body') assert.deepEqual(log, ['POST /v1/engagements'], 'the answer was the engagement');
  else if (named && !later)
    assert.deepEqual(log, ['POST /v1/engagements', `GET /v1/engagements/${id}`], 'exactly 2 requests: POST, GET');
  else if (later && writes !== 'acceptedSilent')
    assert.ok(gets >= 2 && gets <= mostLooks && gets === log.length - 1, `1 POST and ${gets} GETs of it`);
  else {
    const pages = 1 + Math.ceil(total / 100);
    assert.ok(
      lists >= 1 && lists <= mostLooks * pages && lists === log.length - 1,
      `nothing named: 1 POST and ${lists} list reads (a refused size, then pages of 100)`,
    );
  }
}
