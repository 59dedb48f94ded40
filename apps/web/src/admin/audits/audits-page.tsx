import { useState } from 'react';
import { Button } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { AUDITS_PAGE_SIZE, auditsMessages, type AdminAuditEntry } from '@clinicrelay/contracts/audits.ts';
import { auditsKeys, downloadAudits, fetchAudits } from '../../api/audits.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { formatDateTime } from '../../components/format.ts';
import { ListPage, type ListColumn } from '../../components/list-page.tsx';
import { useListState } from '../../components/list-state.ts';
import { notifyError } from '../../components/notify.ts';
import { saveFile } from '../../components/save-file.ts';
import { TruncatedText } from '../../components/truncated-text.tsx';

const columns: ListColumn<AdminAuditEntry>[] = [
  { key: 'eventType', header: 'Event Type', width: 200 },
  { key: 'eventData', header: 'Event Data', render: (row) => <TruncatedText text={row.eventData ?? ''} /> },
  { key: 'createdBy', header: 'Created By', width: 260 },
  { key: 'timestamp', header: 'Timestamp', width: 190, render: (row) => formatDateTime(row.timestamp) },
];

// back-office-b Audits: every organization's audit entries by start, end and user name, 25 a page, exported as CSV
// named by the start and end dates. The last seven days unless the URL says otherwise.
export function AuditsPage() {
  usePageTitle('Audits');
  const [state, setState] = useListState({
    pageSize: AUDITS_PAGE_SIZE,
    startDate: dayjs().subtract(6, 'day').format('YYYY-MM-DD'),
    endDate: dayjs().format('YYYY-MM-DD'),
  });
  const query = useQuery({ queryKey: auditsKeys.page(state), queryFn: ({ signal }) => fetchAudits(state, signal), placeholderData: keepPreviousData });
  const [exporting, setExporting] = useState(false);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const file = await downloadAudits(state);
      saveFile(file.blob, file.fileName);
    } catch {
      notifyError('The audit entries could not be exported.');
    } finally {
      setExporting(false);
    }
  };

  return (
    <ListPage<AdminAuditEntry>
      title="Audits"
      columns={columns}
      query={{ items: query.data?.items, totalCount: query.data?.totalCount, isLoading: query.isLoading, error: query.error }}
      state={state}
      onStateChange={setState}
      searchLabel="Username"
      dateRange
      fixedLayout
      emptyText={auditsMessages.empty}
      actions={
        <Button variant="default" onClick={() => void exportCsv()} loading={exporting}>
          Export CSV
        </Button>
      }
    />
  );
}
