import { useState } from 'react';
import { Button } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { reportMessages as text, type GeneratedReport } from '@clinicrelay/contracts/reports.ts';
import { downloadGeneratedReport, fetchGeneratedReports, reportKeys } from '../../api/reports.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { formatDateTime } from '../../components/format.ts';
import { ListPage, type ListColumn } from '../../components/list-page.tsx';
import { useListState } from '../../components/list-state.ts';
import { notifyError } from '../../components/notify.ts';
import { saveFile } from '../../components/save-file.ts';

// back-office-b §2/§3 "Generated reports": name, file name, create date; each file downloadable.
export function GeneratedReportsPage() {
  usePageTitle('Generated reports');
  const [state, setState] = useListState({ pageSize: 25 });
  const [busy, setBusy] = useState<string | null>(null);
  const query = useQuery({ queryKey: reportKeys.generated(state.page, state.pageSize, state.search), queryFn: ({ signal }) => fetchGeneratedReports(state.page, state.pageSize, state.search, signal) });
  const download = async (row: GeneratedReport) => {
    setBusy(row.id);
    try {
      const file = await downloadGeneratedReport(row.id, row.fileName);
      saveFile(file.blob, file.fileName);
    } catch {
      notifyError(text.downloadFailed);
    } finally {
      setBusy(null);
    }
  };
  const columns: ListColumn<GeneratedReport>[] = [
    { key: 'name', header: 'Name' },
    { key: 'fileName', header: 'File Name' },
    { key: 'createDate', header: 'Create Date', width: 200, render: (row) => formatDateTime(row.createDate) },
    {
      key: 'download',
      header: 'Actions',
      width: 130,
      render: (row) => (
        <Button size="xs" variant="light" onClick={() => void download(row)} loading={busy === row.id} aria-label={`Download ${row.fileName}`}>
          Download
        </Button>
      ),
    },
  ];
  return (
    <ListPage<GeneratedReport>
      title="Generated reports"
      columns={columns}
      query={{ items: query.data?.items, totalCount: query.data?.totalCount, isLoading: query.isLoading, error: query.error }}
      state={state}
      onStateChange={setState}
      emptyText={text.noGeneratedReports}
    />
  );
}
