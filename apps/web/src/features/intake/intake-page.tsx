import { useMemo, useState } from 'react';
import { ActionIcon, Anchor, Badge, Button, Checkbox, Group, Menu, MultiSelect, Popover, SegmentedControl, Select, Stack, Text, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatCount, intakeMessages, processedTypes, type IntakeListItem } from '@clinicrelay/contracts/intake.ts';
import { useSession } from '../../app/session-context.ts';
import { formatDateTime } from '../../components/format.ts';
import { ListPage, type ListColumn } from '../../components/list-page.tsx';
import { useListState } from '../../components/list-state.ts';
import { MessageActivityModal } from '../../components/message-activity-modal.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { administratorNames, intakeKeys, processMessage, useDocumentSources, useIntakeList, type ProcessType } from './api.ts';
import { DeleteMessageModal } from './delete-message-modal.tsx';
import { GearTaskList } from './gear-task-list.tsx';
import { useIntakeHub, usePresence, type PresenceEntry } from './hub.ts';
import { intakeListDefaults, toIntakeFilter, useIntakeExtraFilters, type Assignment } from './intake-filter-state.ts';
import { ExportIcon, PaperclipIcon, PrinterIcon } from './intake-icons.tsx';
import {
  docStatus,
  docStatusColor,
  processedTypeLabels,
  processedTypeOptions,
  sourceTypeOptions,
  statusColor,
  statusLabel,
  statusOptions,
  truncateSubject,
} from './intake-text.ts';
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

function ProcessedIcon({ row }: { row: Row }) {
  if (!row.isProcessed || !row.processedType) return null;
  const label = processedTypeLabels[row.processedType as ProcessType] ?? row.processedType;
  return (
    <Tooltip label={label}>
      <span>{row.processedType === 'Printed' ? <PrinterIcon label={label} /> : <ExportIcon label={label} />}</span>
    </Tooltip>
  );
}

function OpenBy({ entries }: { entries: readonly PresenceEntry[] | undefined }) {
  if (!entries || entries.length === 0) return null;
  const names = entries.map((e) => e.fullName).join(', ');
  return (
    <Tooltip label={`Open by ${names}`}>
      <Badge size="xs" variant="dot" color="orange" aria-label={`Open by ${names}`}>
        Open
      </Badge>
    </Tooltip>
  );
}

/** /intake: the organization's received messages, as the user's addresses, rules and assignments give them. */
export function IntakePage() {
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

  const columns: ListColumn<Row>[] = [
    {
      key: 'select',
      header: '',
      render: (row) => <Checkbox aria-label={`Select ${row.subject || '(no subject)'}`} checked={selected.has(row.id)} onChange={() => toggle(row.id)} />,
    },
    {
      key: 'attachmentCount',
      header: 'Files',
      render: (row) =>
        row.attachmentCount > 0 ? (
          <Group gap={2} wrap="nowrap" aria-label={`${row.attachmentCount} attachments`}>
            <PaperclipIcon />
            <Text size="sm">{row.attachmentCount}</Text>
          </Group>
        ) : null,
    },
    {
      key: 'subject',
      header: 'Subject',
      filter: { kind: 'text' },
      render: (row) => (
        <Group gap={6} wrap="nowrap">
          <Anchor component={Link} to={`/intake/${row.id}`} title={row.subject} fw={row.isRead ? undefined : 700}>
            {truncateSubject(row.subject) || '(no subject)'}
          </Anchor>
          <OpenBy entries={othersOn(row.id)} />
        </Group>
      ),
    },
    {
      key: 'date',
      header: 'Date',
      render: (row) => formatDateTime(state.sortCol === 'updatedDate' ? row.updatedDate : (row.systemReceivedDate ?? row.messageDate)),
    },
    { key: 'processedType', header: 'Processed', render: (row) => <ProcessedIcon row={row} /> },
    {
      key: 'actions',
      header: 'Actions',
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
    { key: 'fromAddress', header: 'From', filter: { kind: 'text' } },
    { key: 'toAddress', header: 'To', filter: { kind: 'text' } },
    { key: 'patientName', header: 'Patient', filter: { kind: 'text' } },
    {
      key: 'status',
      header: 'Status',
      render: (row) => (
        <Badge variant="light" radius="xl" color={statusColor(row.status)}>
          {statusLabel(row.status)}
        </Badge>
      ),
    },
    {
      key: 'docStatus',
      header: 'Doc status',
      render: (row) => {
        const status = docStatus(row);
        return (
          <Badge variant="outline" color={docStatusColor[status]}>
            {status}
          </Badge>
        );
      },
    },
    { key: 'faxPageCount', header: 'Fax pages', render: (row) => (row.faxPageCount === null ? '' : row.faxPageCount) },
  ];

  const counts = list.data?.counts;
  const assignmentData: { value: Assignment; label: string }[] = [
    { value: 'all', label: counts ? `All (${formatCount(counts.all)})` : 'All' },
    { value: 'unassigned', label: counts ? `Unassigned (${formatCount(counts.unassigned)})` : 'Unassigned' },
    { value: 'mine', label: counts ? `Assigned to me (${formatCount(counts.assignedToSelf)})` : 'Assigned to me' },
  ];
  const activeFilters = extra.statuses.length + extra.sourceTypes.length + extra.processedTypes.length + extra.sources.length;
  const emptyText = list.data?.nothingAssigned ? intakeMessages.nothingAssigned(administratorNames(list.data)) : intakeMessages.noMessages;

  return (
    <>
      <ListPage
        title="Intake"
        columns={columns}
        query={{ items: list.data?.items, totalCount: list.data?.totalCount, isLoading: list.isLoading, error: list.error }}
        state={state}
        onStateChange={(patch) => {
          setSelected(new Set());
          setState(patch);
        }}
        dateRange
        emptyText={emptyText}
        actions={
          <>
            <Checkbox
              label="Select all"
              checked={allState === 'checked'}
              indeterminate={allState === 'indeterminate'}
              disabled={rows.length === 0}
              onChange={() => setSelected(allState === 'checked' ? new Set() : new Set(rows.map((r) => r.id)))}
            />
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
              w={250}
              allowDeselect={false}
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
                    data={(sources.data ?? []).map((s) => ({ value: s.id, label: s.address.fullAddress }))}
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
