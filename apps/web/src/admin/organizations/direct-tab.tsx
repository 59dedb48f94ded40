import { Badge, Button, Select, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { displayAddress } from '@clinicrelay/contracts/addresses.ts';
import { DOCUMENT_SOURCE_STATUS as STATUS, documentSourceCreate, documentSourceMessages as text, type AdminDocumentSource } from '@clinicrelay/contracts/document-sources.ts';
import {
  activateAdminDocumentSource,
  adminDocumentSourceKeys,
  createAdminDocumentSource,
  fetchAdminDocumentSources,
  removeAdminDocumentSource,
  updateAdminDocumentSource,
} from '../../api/document-sources.ts';
import { errorDetails } from '../../components/error-details.ts';
import { formatDate } from '../../components/format.ts';
import type { ListColumn } from '../../components/list-page.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { AdminListArea } from '../admin-list-area.tsx';

interface TabProps {
  organization: { id: string; name: string; subdomain: string };
}

type Values = z.input<typeof documentSourceCreate>;

const TYPE_LABELS = { DirectMessaging: 'Direct address', Fax: 'Fax number' } as const;
const STATUS_COLORS: Record<number, string> = { 0: 'yellow', 1: 'green', 2: 'blue', 3: 'orange', 4: 'gray', 5: 'red' };

const columns: ListColumn<AdminDocumentSource>[] = [
  { key: 'fullAddress', header: 'Address', render: (row) => displayAddress(row.fullAddress) },
  { key: 'type', header: 'Type', render: (row) => TYPE_LABELS[row.type] },
  { key: 'statusName', header: 'Status', render: (row) => <Badge color={STATUS_COLORS[row.status] ?? 'gray'} variant="light">{row.statusName}</Badge> },
  { key: 'createdDate', header: 'Added', render: (row) => formatDate(row.createdDate) },
];

/**
 * The organization's Direct addresses and fax numbers (issue 11 "Direct tab"): the addresses Release sends from and
 * Intake receives at. A new one is Provisioning until activated; removing marks it Deleted (its history stays) and
 * activating a deleted one restores it.
 */
export function DirectTab({ organization }: TabProps) {
  const queryClient = useQueryClient();
  const activate = async (row: AdminDocumentSource) => {
    try {
      await activateAdminDocumentSource(row.id);
      notifySuccess(text.activated);
      await queryClient.invalidateQueries({ queryKey: adminDocumentSourceKeys.all });
    } catch (failure) {
      notifyError(errorDetails(failure).message);
    }
  };
  return (
    <AdminListArea<AdminDocumentSource, Values>
      embedded
      title="Direct addresses and fax numbers"
      entityName="address"
      queryKey={[...adminDocumentSourceKeys.all, organization.id]}
      columns={columns}
      fetchPage={(state, signal) => fetchAdminDocumentSources(organization.id, state, signal)}
      form={{
        schema: documentSourceCreate,
        blank: { organizationId: organization.id, type: 'DirectMessaging', fullAddress: '' },
        valuesOf: (row) => ({ organizationId: organization.id, type: row.type, fullAddress: row.fullAddress }),
        fields: (form, row) => (
          <>
            <Select
              label="Type"
              required
              allowDeselect={false}
              disabled={row !== null}
              data={Object.entries(TYPE_LABELS).map(([value, label]) => ({ value, label }))}
              {...form.getInputProps('type')}
            />
            <TextInput
              label={form.values.type === 'Fax' ? 'Fax number' : 'Direct address'}
              description={form.values.type === 'Fax' ? '10 digits, e.g. (503) 555-0101' : organization.subdomain ? `name@${organization.subdomain}.…` : undefined}
              required
              maxLength={255}
              data-autofocus
              {...form.getInputProps('fullAddress')}
            />
          </>
        ),
      }}
      create={createAdminDocumentSource}
      update={(row, values) => updateAdminDocumentSource({ id: row.id, type: row.type, fullAddress: values.fullAddress })}
      remove={(row) => removeAdminDocumentSource(row.id)}
      rowName={(row) => displayAddress(row.fullAddress)}
      rowEditable={(row) => row.status !== STATUS.Deleted}
      rowActions={(row) =>
        row.status !== STATUS.Activated && (
          <Button size="compact-xs" variant="light" aria-label={`Activate ${displayAddress(row.fullAddress)}`} onClick={() => void activate(row)}>
            Activate
          </Button>
        )
      }
      actionsWidth={190}
      deletePrompt={(name) => `Remove ${name}? It stops sending and receiving at once; messages already sent or received keep it.`}
      deleteLabels={{ cancel: 'Cancel', confirm: 'Remove' }}
      messages={{ saved: text.saved, deleted: text.removed }}
      emptyText="This organization has no Direct addresses or fax numbers yet."
    />
  );
}
