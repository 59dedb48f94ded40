import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Loader, Modal, MultiSelect, Select, SimpleGrid, Stack, Switch, Table, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  alternateOidSave,
  carequalityMessages as text,
  directoryEntrySave,
  responderTypes,
  type AlternateOid,
  type DirectoryEntry,
} from '@clinicrelay/contracts/carequality.ts';
import { carequalityKeys, deleteOid, fetchDirectoryEntries, fetchOids, saveDirectoryEntry, saveOid, syncDirectoryEntries } from '../../api/carequality.ts';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { EntityModal } from '../../components/entity-modal.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { formatDateTime } from '../../components/format.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';

interface TabProps {
  organization: { id: string; name: string; subdomain: string };
}

// back-office-a §2 "Carequality tabs under an organization": alternate OIDs and directory entries, each a section
// that owns its query and modals.
export function CarequalityTab({ organization }: TabProps) {
  return (
    <Stack gap="xl">
      <Alert color="gray" variant="light">
        {text.sandbox}
      </Alert>
      <AlternateOids organizationId={organization.id} />
      <DirectoryEntries organizationId={organization.id} />
    </Stack>
  );
}

type OidValues = z.output<typeof alternateOidSave>;

function AlternateOids({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const oids = useQuery({ queryKey: carequalityKeys.oids(organizationId), queryFn: ({ signal }) => fetchOids(organizationId, signal) });
  const [editing, setEditing] = useState<{ oid: AlternateOid | null } | null>(null);
  const [deleting, setDeleting] = useState<AlternateOid | null>(null);
  // §4: the default flips at once and is put back if the call fails.
  const [flipped, setFlipped] = useState<Record<string, boolean>>({});
  const refresh = () => queryClient.invalidateQueries({ queryKey: carequalityKeys.all });
  const toggleDefault = async (oid: AlternateOid) => {
    setFlipped((f) => ({ ...f, [oid.id]: !oid.isDefault }));
    try {
      await saveOid(organizationId, { id: oid.id, value: oid.value, isDefault: !oid.isDefault });
      notifySuccess(text.oidSaved);
      await refresh();
    } catch (failure) {
      notifyError(errorDetails(failure).message || text.oidSaveFailed);
    } finally {
      setFlipped(({ [oid.id]: _gone, ...rest }) => rest);
    }
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>Alternate OIDs</Title>
        <Button onClick={() => setEditing({ oid: null })}>Add alternate OID</Button>
      </Group>
      {oids.isPending ? (
        <Loader aria-label="Loading the alternate OIDs" />
      ) : oids.error ? (
        <Alert color="red">{errorDetails(oids.error).message}</Alert>
      ) : oids.data.length === 0 ? (
        <EmptyState text={text.noOids} />
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>OID</Table.Th>
              <Table.Th w={100}>Default</Table.Th>
              <Table.Th w={110}>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {oids.data.map((oid) => (
              <Table.Tr key={oid.id}>
                <Table.Td>{oid.value}</Table.Td>
                <Table.Td>
                  <Switch aria-label={`Default: ${oid.value}`} checked={flipped[oid.id] ?? oid.isDefault} onChange={() => void toggleDefault(oid)} />
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Button size="compact-xs" variant="subtle" aria-label={`Edit ${oid.value}`} onClick={() => setEditing({ oid })}>
                      Edit
                    </Button>
                    <Button size="compact-xs" variant="subtle" color="red" aria-label={`Delete ${oid.value}`} onClick={() => setDeleting(oid)}>
                      Delete
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <EntityModal<OidValues>
        opened={editing !== null}
        onClose={() => setEditing(null)}
        entityName="alternate OID"
        entity={editing?.oid ? { id: editing.oid.id, value: editing.oid.value, isDefault: editing.oid.isDefault } : { value: '', isDefault: false }}
        schema={alternateOidSave}
        successMessage={text.oidSaved}
        onSubmit={async (values) => {
          await saveOid(organizationId, { ...values, id: editing?.oid?.id });
          await refresh();
        }}
      >
        {(form) => (
          <>
            <TextInput label="Value" placeholder="2.16.840.1.113883.3.72" required maxLength={255} data-autofocus {...form.getInputProps('value')} />
            <Checkbox label="Default" {...form.getInputProps('isDefault', { type: 'checkbox' })} />
          </>
        )}
      </EntityModal>
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete alternate OID"
        message={deleting && `Delete ${deleting.value}?`}
        confirmLabel="Delete"
        danger
        successMessage={text.oidDeleted}
        onConfirm={async () => {
          if (deleting) await deleteOid(organizationId, deleting.id);
          await refresh();
        }}
      />
    </Stack>
  );
}

type EntryValues = z.output<typeof directoryEntrySave>;

// The modal edits what the body carries; a new entry has no responder type yet (null until chosen).
const entryValues = (entry: DirectoryEntry): EntryValues => ({
  id: entry.id,
  organizationId: entry.organizationId,
  parentOrgId: entry.parentOrgId ?? '',
  isParent: entry.isParent,
  isActive: entry.isActive,
  responderType: entry.responderType as EntryValues['responderType'],
  address: entry.address,
  city: entry.city,
  state: entry.state,
  zipCode: entry.zipCode,
  country: entry.country,
  displayName: entry.displayName,
  legalName: entry.legalName ?? '',
  homeCommunityId: entry.homeCommunityId ?? '',
  otherNames: entry.otherNames,
  initiatorOnly: entry.initiatorOnly,
});

function DirectoryEntries({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const entries = useQuery({ queryKey: carequalityKeys.entries(organizationId), queryFn: ({ signal }) => fetchDirectoryEntries(organizationId, signal) });
  const oids = useQuery({ queryKey: carequalityKeys.oids(organizationId), queryFn: ({ signal }) => fetchOids(organizationId, signal) });
  const [editing, setEditing] = useState<DirectoryEntry | null>(null);
  const [toggling, setToggling] = useState<DirectoryEntry | null>(null);
  const [syncing, setSyncing] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: carequalityKeys.entries(organizationId) });

  if (entries.isPending) return <Loader aria-label="Loading the directory entries" />;
  if (entries.error) return <Alert color="red">{errorDetails(entries.error).message}</Alert>;
  const { items, newEntry } = entries.data;
  const knownOids = [...new Set([newEntry.homeCommunityId, ...(oids.data ?? []).map((o) => o.value), ...items.map((e) => e.homeCommunityId)].filter((v): v is string => !!v))];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>Directory entries</Title>
        <Group gap="xs">
          <Button variant="default" onClick={() => setSyncing(true)} disabled={items.length === 0}>
            Sync
          </Button>
          <Button onClick={() => setEditing(newEntry)}>Add directory entry</Button>
        </Group>
      </Group>
      {items.length === 0 ? (
        <EmptyState text={text.noEntries} />
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Display name</Table.Th>
              <Table.Th>Responder type</Table.Th>
              <Table.Th>Home community</Table.Th>
              <Table.Th>City, state</Table.Th>
              <Table.Th>Active</Table.Th>
              <Table.Th>Synced</Table.Th>
              <Table.Th w={170}>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((entry) => (
              <Table.Tr key={entry.id}>
                <Table.Td>{entry.displayName}</Table.Td>
                <Table.Td>{entry.responderType}</Table.Td>
                <Table.Td>{entry.homeCommunityId ?? newEntry.homeCommunityId ?? ''}</Table.Td>
                <Table.Td>{[entry.city, entry.state].filter(Boolean).join(', ')}</Table.Td>
                <Table.Td>{entry.isActive ? 'Yes' : 'No'}</Table.Td>
                <Table.Td>{formatDateTime(entry.syncedAt)}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Button size="compact-xs" variant="subtle" aria-label={`Edit ${entry.displayName}`} onClick={() => setEditing(entry)}>
                      Edit
                    </Button>
                    <Button size="compact-xs" variant="subtle" color={entry.isActive ? 'red' : undefined} onClick={() => setToggling(entry)}>
                      {entry.isActive ? 'Deactivate' : 'Activate'}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <EntityModal<EntryValues>
        opened={editing !== null}
        onClose={() => setEditing(null)}
        entityName="directory entry"
        size="lg"
        entity={editing ? entryValues(editing) : entryValues(newEntry)}
        schema={directoryEntrySave}
        successMessage={text.entrySaved}
        onSubmit={async (values) => {
          await saveDirectoryEntry(organizationId, values);
          await refresh();
        }}
      >
        {(form) => (
          <>
            <Select
              label="Responder type"
              required
              data={[...responderTypes]}
              {...form.getInputProps('responderType')}
              onChange={(value) => {
                form.setFieldValue('responderType', value as EntryValues['responderType']);
                if (value === 'InitiatorOnly') form.setFieldValue('initiatorOnly', true);
              }}
            />
            <SimpleGrid cols={2}>
              <TextInput label="Display name" required maxLength={255} {...form.getInputProps('displayName')} />
              <TextInput label="Legal name" maxLength={255} {...form.getInputProps('legalName')} />
              <TextInput label="Home community id" maxLength={255} {...form.getInputProps('homeCommunityId')} />
              <TextInput label="Parent organization" maxLength={255} {...form.getInputProps('parentOrgId')} />
            </SimpleGrid>
            <TagsInput label="Other names" {...form.getInputProps('otherNames')} />
            <TextInput label="Address" required maxLength={255} {...form.getInputProps('address')} />
            <SimpleGrid cols={4}>
              <TextInput label="City" required maxLength={255} {...form.getInputProps('city')} />
              <TextInput label="State" required maxLength={255} {...form.getInputProps('state')} />
              <TextInput label="Zip code" required maxLength={255} {...form.getInputProps('zipCode')} />
              <TextInput label="Country" required maxLength={255} {...form.getInputProps('country')} />
            </SimpleGrid>
            <Text size="sm">
              Purpose-of-use codes: {(editing ?? newEntry).purposeOfUseCodes.join(', ') || 'none'}
            </Text>
            <Group>
              <Checkbox label="Is parent" {...form.getInputProps('isParent', { type: 'checkbox' })} />
              <Checkbox label="Active" {...form.getInputProps('isActive', { type: 'checkbox' })} />
              <Checkbox label="Initiator only" {...form.getInputProps('initiatorOnly', { type: 'checkbox' })} />
            </Group>
          </>
        )}
      </EntityModal>
      <ConfirmModal
        opened={toggling !== null}
        onClose={() => setToggling(null)}
        title={toggling?.isActive ? 'Deactivate directory entry' : 'Activate directory entry'}
        message={toggling && `${toggling.isActive ? 'Deactivate' : 'Activate'} ${toggling.displayName}?`}
        confirmLabel={toggling?.isActive ? 'Deactivate' : 'Activate'}
        successMessage={toggling?.isActive ? text.entryDeactivated : text.entryActivated}
        onConfirm={async () => {
          if (toggling) await saveDirectoryEntry(organizationId, { ...entryValues(toggling), isActive: !toggling.isActive });
          await refresh();
        }}
      />
      <SyncModal
        opened={syncing}
        onClose={() => setSyncing(false)}
        oids={knownOids}
        onSync={async (chosen) => {
          const result = await syncDirectoryEntries(organizationId, chosen);
          notifySuccess(result.message);
          await refresh();
        }}
      />
    </Stack>
  );
}

function SyncModal({ opened, onClose, oids, onSync }: { opened: boolean; onClose: () => void; oids: string[]; onSync: (oids: string[]) => Promise<void> }) {
  const [chosen, setChosen] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const sync = async () => {
    if (chosen.length === 0) return setError(text.syncNeedsOids);
    setLoading(true);
    setError(null);
    try {
      await onSync(chosen);
      setChosen([]);
      onClose();
    } catch (failure) {
      setError(errorDetails(failure).message);
    } finally {
      setLoading(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Sync directory entries">
      <Stack>
        <MultiSelect label="OIDs" data={oids} value={chosen} onChange={setChosen} error={error} searchable />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={loading}>
            Cancel
          </Button>
          <Button loading={loading} onClick={() => void sync()}>
            Sync
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

// The spec shows the qhin tab's name only: QHIN exchange (TEFCA) is not configured in this installation.
export function QhinTab({ organization }: TabProps) {
  return (
    <Stack maw={640}>
      <Title order={3}>QHIN exchange</Title>
      <Text>
        A Qualified Health Information Network (QHIN) connects networks under TEFCA, the Trusted Exchange Framework and Common Agreement, so that{' '}
        {organization.name} could query and be queried for patient records nationwide through a QHIN instead of through Carequality.
      </Text>
      <Alert color="gray" variant="light">
        QHIN exchange is not configured in this installation. There is nothing to set for this organization here.
      </Alert>
    </Stack>
  );
}

