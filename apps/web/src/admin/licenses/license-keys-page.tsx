import { useState } from 'react';
import { Badge, Button, Chip } from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { LICENSE_GRID_PAGE_SIZE, type IssuedLicense, type LicenseRow } from '@clinicrelay/contracts/licenses.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { fetchLicenses, licenseKeys } from '../../api/licenses.ts';
import { formatDate } from '../../components/format.ts';
import { ListPage, type ListColumn } from '../../components/list-page.tsx';
import { useListState } from '../../components/list-state.ts';
import { GenerateLicensesModal } from './generate-licenses-modal.tsx';
import { GeneratedLicensesModal } from './generated-licenses-modal.tsx';

const EXPIRING_PARAM = 'expiring';

const columns: ListColumn<LicenseRow>[] = [
  { key: 'LicenseKey', header: 'License key', sortable: true, render: (row) => <span style={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{row.LicenseKey}</span> },
  { key: 'LicenseType', header: 'License type', sortable: true },
  { key: 'Organization', header: 'Organization', sortable: true },
  { key: 'ConnectorId', header: 'Connector id', sortable: true, render: (row) => row.ConnectorId ?? '' },
  { key: 'ConnectorName', header: 'Connector name', sortable: true, render: (row) => row.ConnectorName ?? '' },
  { key: 'IssuedDate', header: 'Issued date', sortable: true, render: (row) => formatDate(row.IssuedDate) },
  {
    key: 'ExpirationDate',
    header: 'Expiration date',
    sortable: true,
    render: (row) => (
      <>
        {formatDate(row.ExpirationDate)}
        {row.ExpiringSoon && (
          <Badge ml={6} size="xs" color="orange" variant="light">
            Soon
          </Badge>
        )}
      </>
    ),
  },
];

/** /admin/licensekeys: issued keys with the 'Expiring Soon' quick filter, and the generate action (back-office-b §2). */
export function LicenseKeysPage() {
  usePageTitle('License keys');
  // §9: grids default to 20 rows.
  const [state, setState] = useListState({ pageSize: LICENSE_GRID_PAGE_SIZE });
  const [params, setParams] = useSearchParams();
  const expiringSoon = params.get(EXPIRING_PARAM) === '1';
  const list = useQuery({
    queryKey: [...licenseKeys.all, 'grid', state, expiringSoon],
    queryFn: ({ signal }) => fetchLicenses(state, expiringSoon, signal),
    placeholderData: keepPreviousData,
  });
  const queryClient = useQueryClient();
  const [generating, setGenerating] = useState(false);
  const [generated, setGenerated] = useState<IssuedLicense[] | null>(null);

  const toggleExpiring = (on: boolean) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      if (on) next.set(EXPIRING_PARAM, '1');
      else next.delete(EXPIRING_PARAM);
      next.delete('page');
      return next;
    });

  return (
    <>
      <ListPage
        title="License keys"
        columns={columns}
        rowKey={(row) => row.Id}
        query={{ items: list.data?.items, totalCount: list.data?.totalCount, isLoading: list.isLoading, error: list.error }}
        state={state}
        onStateChange={setState}
        toolbar={
          <Chip checked={expiringSoon} onChange={toggleExpiring} variant="outline" mb={4}>
            Expiring Soon
          </Chip>
        }
        actions={<Button onClick={() => setGenerating(true)}>Generate</Button>}
      />
      <GenerateLicensesModal
        opened={generating}
        onClose={() => setGenerating(false)}
        onGenerated={async (licenses) => {
          setGenerated(licenses);
          await queryClient.invalidateQueries({ queryKey: licenseKeys.all });
        }}
      />
      <GeneratedLicensesModal licenses={generated} onClose={() => setGenerated(null)} />
    </>
  );
}
