// The dashboard's records section as a user pages it: from one page, Next while it is offered.
import type { ServiceApi } from '../../../src/api/service';
import type { DetailsData, ViewState } from '../../../src/usage/protocol';
import { RecordsPages, readRecordsPage } from '../../../src/usage/sections';

export interface Walk {
  /** Each page as the records section showed it. */
  shown: DetailsData[];
  /** Every record id shown, in order. */
  ids: string[];
}

/** The records section of `period` from page `start`, then Next while it is offered (at most 40 pages). */
export async function walkRecords(api: ServiceApi, start: number, pageSize: number, period: string): Promise<Walk> {
  const view: ViewState = {
    environmentId: 'env',
    period,
    sort: { column: 'calls', direction: 'desc' },
    page: start,
    pageSize,
  };
  const pages = new RecordsPages();
  const shown: DetailsData[] = [];
  for (let clicks = 0; clicks < 40; clicks++) {
    const data = await readRecordsPage(api, view, new AbortController().signal, pages);
    shown.push(data);
    if (!data.hasNext) break;
    view.page = data.page + 1;
  }
  return { shown, ids: shown.flatMap((d) => d.records.map((r) => String(r.id))) };
}
