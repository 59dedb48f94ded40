import { useState } from 'react';
import { Badge, Button, Group, Stack, Switch, Text } from '@mantine/core';
import { displayAddress } from '@clinicrelay/contracts/addresses.ts';
import { DOCUMENT_SOURCE_STATUS as STATUS, documentSourceMessages, type AdminDocumentSourceListItem } from '@clinicrelay/contracts/document-sources.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { useSession } from '../../app/session-context.ts';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { formatDate } from '../../components/format.ts';
import { ListPage, type ListColumn } from '../../components/list-page.tsx';
import { useListState } from '../../components/list-state.ts';
import { errorDetails } from '../../components/error-details.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { useOrderFaxNumber, useOrganizationSources, useRemoveSource, useSetSourceGlobal } from './api.ts';
import { RequestAddressModal } from './request-address-modal.tsx';
import { settingsText as text } from './settings-text.ts';

const TYPE_LABELS = { DirectMessaging: 'Direct address', Fax: 'Fax number' } as const;
const STATUS_COLORS: Record<number, string> = { 0: 'yellow', 1: 'green', 2: 'blue', 3: 'orange', 4: 'gray', 5: 'red' };

/**
 * /settings/addresses (issue 13 §3): the organization's Direct addresses and fax numbers, their status and who may send
 * from each; the Administrator requests new ones (a Direct address waits for a system administrator, a fax number
 * comes from the fax provider at once) and removes them.
 */
export function AddressesPage() {
  usePageTitle(text.addressesTitle);
  const { profile } = useSession();
  const organizationId = profile.organizationId ?? '';
  const subdomain = profile.organizations.find((o) => o.id === organizationId)?.subDomain;
  const [state, setState] = useListState();
  const query = useOrganizationSources(organizationId, state);
  const orderFax = useOrderFaxNumber();
  const remove = useRemoveSource();
  const setGlobal = useSetSourceGlobal();
  const [requesting, setRequesting] = useState(false);
  const [orderingFax, setOrderingFax] = useState(false);
  const [removing, setRemoving] = useState<AdminDocumentSourceListItem | null>(null);

  const columns: ListColumn<AdminDocumentSourceListItem>[] = [
    { key: 'fullAddress', header: 'Address', render: (row) => displayAddress(row.fullAddress) },
    { key: 'type', header: 'Type', render: (row) => TYPE_LABELS[row.type] },
    { key: 'statusName', header: 'Status', render: (row) => <Badge color={STATUS_COLORS[row.status] ?? 'gray'} variant="light">{row.statusName}</Badge> },
    {
      key: 'senders',
      header: 'Who may send',
      render: (row) => (
        <Stack gap={4}>
          <Switch
            size="xs"
            label={text.globalAddress}
            aria-label={`Every user may send from ${displayAddress(row.fullAddress)}`}
            title={text.globalAddressHint}
            checked={row.isGlobal}
            disabled={row.status === STATUS.Deleted || setGlobal.isPending}
            onChange={(event) => {
              const isGlobal = event.currentTarget.checked;
              setGlobal.mutate(
                { id: row.id, isGlobal },
                {
                  onSuccess: () => notifySuccess(isGlobal ? documentSourceMessages.madeGlobal : documentSourceMessages.madePersonal),
                  onError: (failure) => notifyError(errorDetails(failure).message),
                },
              );
            }}
          />
          {!row.isGlobal && (row.senders.length ? <Text size="sm">{row.senders.map((s) => s.fullName).join(', ')}</Text> : <Text span c="dimmed" size="sm">{text.noSenders}</Text>)}
        </Stack>
      ),
    },
    { key: 'createdDate', header: 'Added', render: (row) => formatDate(row.createdDate) },
    {
      key: 'actions',
      header: 'Actions',
      render: (row) =>
        row.status !== STATUS.Deleted && (
          <Button size="compact-xs" variant="subtle" color="red" aria-label={`Remove ${displayAddress(row.fullAddress)}`} onClick={() => setRemoving(row)}>
            Remove
          </Button>
        ),
    },
  ];

  return (
    <>
      <ListPage
        title={text.addressesTitle}
        columns={columns}
        query={{ items: query.data?.items, totalCount: query.data?.totalCount, isLoading: query.isLoading, error: query.error }}
        state={state}
        onStateChange={setState}
        emptyText={text.addressesEmpty}
        actions={
          <Group gap="xs">
            <Button onClick={() => setRequesting(true)}>{text.requestDirect}</Button>
            <Button variant="light" onClick={() => setOrderingFax(true)}>
              {text.requestFax}
            </Button>
          </Group>
        }
      />
      <RequestAddressModal opened={requesting} onClose={() => setRequesting(false)} organizationId={organizationId} subdomain={subdomain} />
      <ConfirmModal
        opened={orderingFax}
        onClose={() => setOrderingFax(false)}
        title={text.requestFax}
        message={text.faxConfirm}
        confirmLabel="Request"
        onConfirm={async () => notifySuccess((await orderFax.mutateAsync(organizationId)).notice)}
      />
      <ConfirmModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title="Remove address"
        message={removing ? text.removePrompt(displayAddress(removing.fullAddress)) : ''}
        confirmLabel="Remove"
        danger
        onConfirm={() => removing && remove.mutateAsync(removing.id)}
        successMessage={documentSourceMessages.removed}
      />
    </>
  );
}
