import { act } from '@testing-library/react';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers.tsx';
import { type ListState, type ListStatePatch, useListState } from './list-state.ts';

let current: { state: ListState; setState: (patch: ListStatePatch | ((state: ListState) => ListStatePatch)) => void; search: string };

function Probe({ defaults }: { defaults?: ListStatePatch }) {
  const [state, setState] = useListState(defaults);
  const location = useLocation();
  // eslint-disable-next-line react-hooks/globals -- the test probe hands the hook's state to the test
  current = { state, setState, search: location.search };
  return null;
}

const params = () => Object.fromEntries(new URLSearchParams(current.search));

describe('useListState', () => {
  it('reads the list state from the URL', () => {
    renderWithProviders(<Probe />, {
      route: '/intake?search=lake&sort=name&dir=desc&page=3&size=25&filter_status=equals:New&filter_subject=contains:a:b&from=2026-01-01&to=2026-01-31',
    });
    expect(current.state).toEqual({
      search: 'lake',
      sortCol: 'name',
      sortDir: 'desc',
      page: 3,
      pageSize: 25,
      filters: { status: { operator: 'equals', value: 'New' }, subject: { operator: 'contains', value: 'a:b' } },
      startDate: '2026-01-01',
      endDate: '2026-01-31',
    });
  });

  it('falls back to the defaults for missing or invalid parameters', () => {
    renderWithProviders(<Probe defaults={{ sortCol: 'receiveDate', sortDir: 'desc' }} />, {
      route: '/intake?page=-2&size=7&dir=up&from=yesterday',
    });
    expect(current.state).toEqual({
      search: '',
      sortCol: 'receiveDate',
      sortDir: 'desc',
      page: 1,
      pageSize: 10,
      filters: {},
      startDate: null,
      endDate: null,
    });
  });

  it('writes changes to the URL and reads them back, keeping parameters it does not own', () => {
    renderWithProviders(<Probe />, { route: '/intake?tab=unread' });
    act(() => current.setState({ sortCol: 'date', sortDir: 'desc', page: 4 }));
    expect(params()).toEqual({ tab: 'unread', sort: 'date', dir: 'desc', page: '4' });

    act(() => current.setState({ filters: { status: { operator: 'contains', value: 'New' } } }));
    expect(params()).toEqual({ tab: 'unread', sort: 'date', dir: 'desc', 'filter_status': 'contains:New' });
    expect(current.state.filters).toEqual({ status: { operator: 'contains', value: 'New' } });

    act(() => current.setState({ filters: {} }));
    expect(params()).toEqual({ tab: 'unread', sort: 'date', dir: 'desc' });
  });

  it('keeps both of two changes made before the page renders again (a debounced search landing after a filter)', () => {
    renderWithProviders(<Probe />, { route: '/admin/messages' });
    act(() => {
      current.setState({ filters: { WorkflowStatus: { operator: 'equals', value: 'Completed' } } });
      current.setState({ search: 'riverview' });
    });
    expect(params()).toEqual({ search: 'riverview', filter_WorkflowStatus: 'equals:Completed' });
    // A function patch adds to the filters as last written, before any render shows them.
    act(() => {
      current.setState((state) => ({ filters: { ...state.filters, Direction: { operator: 'equals', value: 'Outbound' } } }));
      current.setState((state) => ({ filters: { ...state.filters, Status: { operator: 'equals', value: '1' } } }));
    });
    expect(params()).toEqual({ search: 'riverview', filter_WorkflowStatus: 'equals:Completed', filter_Direction: 'equals:Outbound', filter_Status: 'equals:1' });
  });

  it('goes back to page 1 when the search, filters or page size change, but not on sort', () => {
    renderWithProviders(<Probe />, { route: '/intake?page=5' });
    act(() => current.setState({ sortCol: 'date' }));
    expect(current.state.page).toBe(5);

    act(() => current.setState({ search: 'river' }));
    expect(current.state).toMatchObject({ search: 'river', page: 1 });
    expect(params()).toEqual({ search: 'river', sort: 'date' });

    act(() => current.setState({ page: 3 }));
    act(() => current.setState({ pageSize: 50 }));
    expect(current.state).toMatchObject({ pageSize: 50, page: 1 });

    act(() => current.setState({ page: 3 }));
    act(() => current.setState({ filters: { name: { operator: 'equals', value: 'x' } } }));
    expect(current.state.page).toBe(1);
  });

  it('keeps an emptied default date range empty', () => {
    renderWithProviders(<Probe defaults={{ startDate: '2026-01-01' }} />, { route: '/intake' });
    expect(current.state.startDate).toBe('2026-01-01');
    act(() => current.setState({ startDate: null }));
    expect(params()).toEqual({ from: '' });
    expect(current.state.startDate).toBeNull();
  });
});
