import { useMemo, useState } from 'react';
import { ActionIcon, Button, Checkbox, Group, Menu, MultiSelect, Popover, SegmentedControl, Select, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatCount, intakeMessages, processedTypes, type IntakeListItem } from '@clinicrelay/contracts/intake.ts';
import { useDocumentSources } from '../../api/document-sources.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { useSession } from '../../app/session-context.ts';
import { ColumnFilter, type ColumnFilterValue } from '../../components/column-filter.tsx';
import { displayAddress } from '@clinicrelay/contracts/addresses.ts';
import { ListPage, type ListColumn } from '../../components/list-page.tsx';
import { useListState, type ListStatePatch } from '../../components/list-state.ts';
import { MessageActivityModal } from '../../components/message-activity-modal.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { TruncatedText } from '../../components/truncated-text.tsx';
import { emptyIntakeText, intakeKeys, processMessage, useIntakeList, type ProcessType } from './api.ts';
import { DeleteMessageModal } from './delete-message-modal.tsx';
import { GearTaskList } from './gear-task-list.tsx';
import { useIntakeHub, usePresence } from './hub.ts';
import { intakeListDefaults, toIntakeFilter, useIntakeExtraFilters, type Assignment } from './intake-filter-state.ts';
import { AddressesCell, DateCell, StatusCell, SubjectCell } from './intake-list-cells.tsx';
import { processedTypeLabels, processedTypeOptions, sourceTypeOptions, statusOptions } from './intake-text.ts';
import { TriageModal } from './triage-modal.tsx';

type Row = IntakeListItem;
type RowAction = { kind: 'triage' | 'activity' | 'delete'; row: Row };

const sortOptions = [
  { value: 'receiveDate:desc', label: 'Received date, newest on top' },
  { value: 'receiveDate:asc', label: 'Received date, oldest on top' },
  { value: 'updatedDate:desc', label: 'Updated date, newest on top' },
  { value: 'updatedDate:asc', label: 'Updated date, oldest on top' },
];

/** Tri-state select all (end-user §4): unchecked, indeterminate, checked. */
export function selectAllState(selected: ReadonlySet<string>, rows: readonly { id: string }[]): 'checked' | 'indeterminate' | 'unchecked' {
  const count = rows.filter((r) => selected.has(r.id)).length;
  if (count === 0) return 'unchecked';
  return count === rows.length ? 'checked' : 'indeterminate';
}

/** /intake: the organization's received messages, as the user's addresses, rules and assignments give them. */
export function IntakePage() {
  usePageTitle('Intake');
  const { profile, features } = useSession();
  const queryClient = useQueryClient();
  const defaults = useMemo(() => intakeListDefaults(), []);
  const [state, setState] = useListState(defaults);
  const [extra, setExtra] = useIntakeExtraFilters();
  const filter = toIntakeFilter(state, extra);
  const list = useIntakeList(filter, features.has('UseOptimizedIntake'));
  const sources = useDocumentSources();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [action, setAction] = useState<RowAction | null>(null);
  const isAdministrator = profile.roles.includes('Administrator');

  const hub = useIntakeHub((event) => {
    if (event.type === 'sync') void queryClient.invalidateQueries({ queryKey: intakeKeys.lists() });
  });
  const presence = usePresence(hub);
  const othersOn = (messageId: string) => presence.get(messageId)?.filter((p) => p.userId !== profile.userId);

  const rows = list.data?.items ?? [];
  const selectedOnPage = new Set(rows.filter((r) => selected.has(r.id)).map((r) => r.id));
  const allState = selectAllState(selectedOnPage, rows);
  const toggle = (id: string) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const processSelected = async (processType: ProcessType) => {
    const ids = [...selectedOnPage];
    const results = await Promise.allSettled(ids.map((id) => processMessage(id, { isProcessed: true, processType })));
    const failed = results.filter((r) => r.status === 'rejected').length;
    if (failed > 0) notifyError(intakeMessages.statusChangeFailed('processed'));
    else notifySuccess(intakeMessages.statusChanged('processed'));
    setSelected(new Set());
    void queryClient.invalidateQueries({ queryKey: intakeKeys.lists() });
  };

  const changeState = (patch: ListStatePatch) => {
    setSelected(new Set());
    setState(patch);
  };
  const columnFilter = (key: 'fromAddress' | 'toAddress', label: string) => (
    <ColumnFilter
      kind="text"
      label={label}
      value={state.filters[key] ?? null}
      onChange={(value: ColumnFilterValue | null) => {
        const filters = { ...state.filters };
        if (value) filters[key] = value;
        else delete filters[key];
        changeState({ filters });
      }}
    />
  );

  // Fixed widths for the short columns; subject, From/To and patient share the rest and cut their text. Below 1200 px
  // the date and the fax page count give their room to the subject and the names (the sort still uses the date).
  const columns: ListColumn<Row>[] = [
    {
      key: 'select',
      header: 'Select',
      width: 44,
      headerContent: (
        <Checkbox
          aria-label="Select all"
          checked={allState === 'checked'}
          indeterminate={allState === 'indeterminate'}
          disabled={rows.length === 0}
          onChange={() => setSelected(allState === 'checked' ? new Set() : new Set(rows.map((r) => r.id)))}
        />
      ),
      render: (row) => <Checkbox aria-label={`Select ${row.subject || '(no subject)'}`} checked={selected.has(row.id)} onChange={() => toggle(row.id)} />,
    },
    { key: 'subject', header: 'Subject', filter: { kind: 'text' }, render: (row) => <SubjectCell row={row} openBy={othersOn(row.id)} /> },
    {
      key: 'date',
      header: 'Date',
      width: 104,
      visibleFrom: 'lg',
      render: (row) => <DateCell value={state.sortCol === 'updatedDate' ? row.updatedDate : (row.systemReceivedDate ?? row.messageDate)} />,
    },
    {
      key: 'actions',
      header: 'Actions',
      width: 48,
      headerContent: <VisuallyHidden>Actions</VisuallyHidden>,
      render: (row) => (
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" aria-label={`Actions for ${row.subject || '(no subject)'}`}>
              ⋯
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {row.sourceType !== 'Triage' && (
              <Menu.Item component={Link} to={`/release/reply/${row.id}`}>
                Reply
              </Menu.Item>
            )}
            <Menu.Item component={Link} to={`/release/forward/${row.id}`}>
              Forward
            </Menu.Item>
            <Menu.Item onClick={() => setAction({ kind: 'triage', row })}>Triage</Menu.Item>
            {isAdministrator && <Menu.Item onClick={() => setAction({ kind: 'activity', row })}>Activity</Menu.Item>}
            <Menu.Item color="red" onClick={() => setAction({ kind: 'delete', row })}>
              Delete
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      ),
    },
    {
      key: 'fromAddress',
      header: 'From / To',
      width: '18%',
      headerContent: (
        <Group gap={4} wrap="nowrap">
          From {columnFilter('fromAddress', 'From')} / To {columnFilter('toAddress', 'To')}
        </Group>
      ),
      render: (row) => <AddressesCell row={row} />,
    },
    { key: 'patientName', header: 'Patient', width: 140, filter: { kind: 'text' }, render: (row) => <TruncatedText text={row.patientName ?? ''} size="sm" /> },
    { key: 'status', header: 'Status', width: 136, render: (row) => <StatusCell row={row} /> },
    {
      key: 'faxPageCount',
      header: 'Fax pages',
      visibleFrom: 'lg',
      // "pages" in the bold header needs 40 px besides the cell padding: narrower, it overflowed the table by a pixel.
      width: 64,
      render: (row) => (row.faxPageCount === null ? '' : <Text size="sm">{row.faxPageCount}</Text>),
    },
  ];

  const counts = list.data?.counts;
  const assignmentData: { value: Assignment; label: string }[] = [
    { value: 'all', label: counts ? `All (${formatCount(counts.all)})` : 'All' },
    { value: 'unassigned', label: counts ? `Unassigned (${formatCount(counts.unassigned)})` : 'Unassigned' },
    { value: 'mine', label: counts ? `Assigned to me (${formatCount(counts.assignedToSelf)})` : 'Assigned to me' },
  ];
  const activeFilters = extra.statuses.length + extra.sourceTypes.length + extra.processedTypes.length + extra.sources.length;
  const emptyText = emptyIntakeText(list.data);

  return (
    <>
      <ListPage
        title="Intake"
        columns={columns}
        query={{
          items: list.data?.items,
          totalCount: list.data?.totalCount,
          totalCountCapped: list.data?.totalCountCapped,
          isLoading: list.isLoading,
          error: list.error,
        }}
        state={state}
        onStateChange={changeState}
        dateRange
        emptyText={emptyText}
        fixedLayout
        actions={
          <>
            {selectedOnPage.size > 0 && (
              <Menu withinPortal>
                <Menu.Target>
                  <Button variant="default">Process selected ({selectedOnPage.size})</Button>
                </Menu.Target>
                <Menu.Dropdown>
                  {processedTypes.map((type) => (
                    <Menu.Item key={type} onClick={() => void processSelected(type)}>
                      {processedTypeLabels[type]}
                    </Menu.Item>
                  ))}
                </Menu.Dropdown>
              </Menu>
            )}
            <SegmentedControl
              aria-label="Assignment"
              data={assignmentData}
              value={extra.assignment}
              onChange={(value) => setExtra({ assignment: value })}
            />
            <Select
              aria-label="Sort"
              w={260}
              allowDeselect={false}
              comboboxProps={{ width: 'target' }}
              data={sortOptions}
              value={`${state.sortCol === 'updatedDate' ? 'updatedDate' : 'receiveDate'}:${state.sortDir}`}
              onChange={(value) => {
                if (!value) return;
                const [sortCol, sortDir] = value.split(':') as [string, 'asc' | 'desc'];
                setState({ sortCol, sortDir, page: 1 });
              }}
            />
            <Popover position="bottom-end" width={320} shadow="md" withinPortal>
              <Popover.Target>
                <Button variant="default">{activeFilters > 0 ? `Filters (${activeFilters})` : 'Filters'}</Button>
              </Popover.Target>
              <Popover.Dropdown>
                <Stack gap="xs">
                  <MultiSelect
                    label="Statuses"
                    data={statusOptions}
                    value={extra.statuses.map(String)}
                    onChange={(values) => setExtra({ statuses: values.map(Number) })}
                    comboboxProps={{ withinPortal: false }}
                    clearable
                  />
                  <MultiSelect
                    label="Source types"
                    data={sourceTypeOptions}
                    value={extra.sourceTypes}
                    onChange={(values) => setExtra({ sourceTypes: values })}
                    comboboxProps={{ withinPortal: false }}
                    clearable
                  />
                  <MultiSelect
                    label="Processed types"
                    data={processedTypeOptions}
                    value={extra.processedTypes}
                    onChange={(values) => setExtra({ processedTypes: values })}
                    comboboxProps={{ withinPortal: false }}
                    clearable
                  />
                  <MultiSelect
                    label="Sources"
                    data={(sources.data ?? []).map((s) => ({ value: s.id, label: displayAddress(s.address.fullAddress) }))}
                    value={extra.sources}
                    onChange={(values) => setExtra({ sources: values })}
                    comboboxProps={{ withinPortal: false }}
                    searchable
                    clearable
                  />
                </Stack>
              </Popover.Dropdown>
            </Popover>
            <GearTaskList />
          </>
        }
      />
      {action?.kind === 'triage' && <TriageModal opened onClose={() => setAction(null)} message={action.row} />}
      {action?.kind === 'delete' && <DeleteMessageModal opened onClose={() => setAction(null)} message={action.row} />}
      {isAdministrator && (
        <MessageActivityModal opened={action?.kind === 'activity'} onClose={() => setAction(null)} messageId={action?.row.id ?? ''} />
      )}
    </>
  );
}
