// The records section: a page as the service pages it (or paged here when the service sent
// every record at once), or, with a filter, a page of the period's records that pass it (the
// whole period read once, with progress, and filtered here).
import type { ServiceApi } from '../api/service';
import type { RecordFilter } from '../core/recordFilter';
import { deriveColumns } from '../core/records';
import type { DashboardState, DetailsData, ViewState } from './protocol';
import { filtered, type RecordsScan } from './recordsScan';

/** The page `view` asks for; `view.page` becomes the page shown. */
export async function readRecordsPage(api: ServiceApi, view: ViewState, signal: AbortSignal): Promise<DetailsData> {
  const { period, page, pageSize } = view;
  let result = await api.usage.details({ billingPeriod: period, page, pageSize }, { signal });
  if (result.data.length > pageSize && result.data.length >= result.totalCount) {
    // The service sent every record at once: page them here, in the size the user chose.
    const last = Math.max(1, Math.ceil(result.data.length / pageSize));
    view.page = Math.min(page, last);
    const records = result.data.slice((view.page - 1) * pageSize, view.page * pageSize);
    return {
      period,
      page: view.page,
      pageSize,
      totalCount: result.data.length,
      columns: deriveColumns(records),
      records,
    };
  }
  // Otherwise the service's own paging counts: its page size (it may cap) and the page it answered.
  const lastPage = Math.max(1, Math.ceil(result.totalCount / result.pageSize));
  if (page > lastPage && result.totalCount > 0) {
    // A restored page past the end (fewer records now): show the last one.
    result = await api.usage.details({ billingPeriod: period, page: lastPage, pageSize }, { signal });
  }
  view.page = result.page;
  const records = result.data.slice(0, Math.max(pageSize, result.pageSize));
  return {
    period,
    page: result.page,
    pageSize: result.pageSize,
    totalCount: result.totalCount,
    columns: deriveColumns(records),
    records,
  };
}

/** A page of the records of the whole period that pass the filter; the scan's progress is in `state.scan`. */
export async function readFilteredPage(
  scan: RecordsScan,
  api: ServiceApi,
  state: DashboardState,
  filter: RecordFilter,
  signal: AbortSignal,
  changed: () => void,
): Promise<DetailsData> {
  const period = state.view.period;
  try {
    const all = await scan.read(
      api,
      period,
      (loaded, total) => {
        if (signal.aborted) return;
        state.scan = { phase: 'running', loaded, total };
        changed();
      },
      signal,
    );
    const matched = filtered(all, filter);
    const { pageSize } = state.view;
    const pages = Math.max(1, Math.ceil(matched.length / pageSize));
    if (state.view.page > pages) state.view.page = pages;
    const page = state.view.page;
    const records = matched.slice((page - 1) * pageSize, page * pageSize);
    return {
      period,
      page,
      pageSize,
      totalCount: matched.length,
      columns: all.columns,
      records,
      filtered: { matched: matched.length, total: all.records.length },
    };
  } finally {
    if (!signal.aborted) state.scan = undefined;
  }
}
