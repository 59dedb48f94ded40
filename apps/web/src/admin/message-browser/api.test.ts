import { describe, expect, it } from 'vitest';
import { parseListState } from '../../components/list-state.ts';
import { filterOf } from './api.ts';

const stateOf = (query: string) =>
  parseListState(new URLSearchParams(query), { search: '', sortCol: null, sortDir: 'asc', page: 1, pageSize: 25, filters: {}, startDate: null, endDate: null });

describe('the message browser grid as an OData $filter', () => {
  it('has no filter when nothing is chosen', () => {
    expect(filterOf(stateOf(''))).toBeUndefined();
  });

  it('searches the addresses and HISP message id case-insensitively, quotes doubled', () => {
    expect(filterOf(stateOf("search=O'Brien"))).toBe(
      "(contains(tolower(Sender),'o''brien') or contains(tolower(MailTo),'o''brien') or contains(tolower(HispMessageId),'o''brien'))",
    );
  });

  it('adds status, direction and workflow status, and ignores values the feed would refuse', () => {
    expect(filterOf(stateOf('filter_Status=equals:12&filter_Direction=equals:Inbound&filter_WorkflowStatus=equals:Failed'))).toBe(
      "Status eq 12 and Direction eq 'Inbound' and WorkflowStatus eq 'Failed'",
    );
    expect(filterOf(stateOf("filter_Status=equals:1 or 1 eq 1&filter_Direction=equals:Sideways"))).toBeUndefined();
  });

  it('turns the date range into created-date bounds, the end day included', () => {
    const filter = filterOf(stateOf('from=2026-06-01&to=2026-06-02'))!;
    const [, start, end] = /^CreatedDate ge (\S+) and CreatedDate lt (\S+)$/.exec(filter)!;
    expect(new Date(end!).getTime() - new Date(start!).getTime()).toBe(2 * 86_400_000);
  });
});
