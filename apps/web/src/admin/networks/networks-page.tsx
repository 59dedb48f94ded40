import { useState } from 'react';
import { ActionIcon, TextInput, Tooltip } from '@mantine/core';
import { networkCreate, networkMessages } from '@clinicrelay/contracts/networks.ts';
import type { z } from 'zod';
import { createNetwork, deleteNetwork, fetchNetworks, networkKeys, updateNetwork } from '../../api/networks.ts';
import type { ListColumn } from '../../components/list-page.tsx';
import { AdminListArea } from '../admin-list-area.tsx';
import { NetworkMembersModal } from './network-members-modal.tsx';

type Row = { id: string; name: string; organizationCount: number; administratorCount: number };
type Values = z.output<typeof networkCreate>;

const columns: ListColumn<Row>[] = [
  { key: 'name', header: 'Name', sortable: true },
  { key: 'organizationCount', header: 'Organizations', width: 140 },
  { key: 'administratorCount', header: 'Administrators', width: 140 },
];

/** /admin/networks (back-office-a §2 "Networks"). */
export function NetworksPage() {
  const [members, setMembers] = useState<string | null>(null);
  return (
    <>
      <AdminListArea<Row, Values>
        title="Networks"
        entityName="network"
        queryKey={networkKeys.all}
        columns={columns}
        fetchPage={fetchNetworks}
        form={{
          schema: networkCreate,
          blank: { name: '' },
          valuesOf: (row) => ({ name: row.name }),
          // No maxLength: a longer name is refused with the limit's message, never cut (issue 26 §3b).
          fields: (form) => <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />,
        }}
        create={(values) => createNetwork(values.name)}
        update={(row, values) => updateNetwork(row.id, { name: values.name })}
        remove={(row) => deleteNetwork(row.id)}
        rowName={(row) => row.name}
        messages={{ saved: networkMessages.saved, deleted: networkMessages.deleted }}
        deletePrompt={(name) => `Delete the network ${name}? Its organizations leave it; they are not deleted.`}
        rowActions={(row) => (
          <Tooltip label="Organizations and administrators" withArrow>
            <ActionIcon variant="subtle" aria-label={`Organizations and administrators of ${row.name}`} onClick={() => setMembers(row.id)}>
              <PeopleIcon />
            </ActionIcon>
          </Tooltip>
        )}
      />
      <NetworkMembersModal networkId={members} onClose={() => setMembers(null)} />
    </>
  );
}

function PeopleIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <circle cx="9" cy="8" r="3" />
      <path d="M3 20c0-3.3 2.7-6 6-6s6 2.7 6 6" />
      <path d="M16 11a3 3 0 1 0 0-6" />
      <path d="M21 20c0-2.6-1.7-4.9-4-5.7" />
    </svg>
  );
}
