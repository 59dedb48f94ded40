import { Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Organization } from '@clinicrelay/contracts/organizations.ts';
import { fetchAdmins, fetchRecords, organizationKeys } from '../../api/organizations.ts';
import { formatDateTime } from '../../components/format.ts';
import { ReadOnlyField } from '../../components/read-only-field.tsx';
import { LicensesSection } from './licenses-section.tsx';

// The info tab (content not shown in the spec): who made and changed the organization, its users, and its admins,
// devices, licenses and integrations.
export function InfoTab({ organization }: { organization: Organization }) {
  const admins = useQuery({ queryKey: organizationKeys.admins(organization.id), queryFn: ({ signal }) => fetchAdmins(organization.id, signal) });
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <ReadOnlyField label="Id" value={String(organization.orgId)} />
        <ReadOnlyField label="Users" value={String(organization.numberOfUsers)} />
        <ReadOnlyField label="Plan" value={organization.plan?.allowedUsersDescription ?? 'None'} />
        <ReadOnlyField label="Created by" value={organization.createdBy ?? ''} />
        <ReadOnlyField label="Created" value={formatDateTime(organization.createDate)} />
        <ReadOnlyField label="Modified by" value={organization.modifiedBy ?? ''} />
        <ReadOnlyField label="Modified" value={formatDateTime(organization.modifiedDate)} />
        <ReadOnlyField label="Login Type" value={organization.loginType} />
      </SimpleGrid>
      <Title order={4}>Administrators</Title>
      {admins.isPending ? (
        <Loader size="sm" aria-label="Loading the administrators" />
      ) : (admins.data ?? []).length === 0 ? (
        <Text c="dimmed">This organization has no administrators.</Text>
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>User name</Table.Th>
              <Table.Th>Email</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {admins.data?.map((a) => (
              <Table.Tr key={a.id}>
                <Table.Td>{a.fullName}</Table.Td>
                <Table.Td>{a.userName}</Table.Td>
                <Table.Td>{a.email}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <RecordList organizationId={organization.id} what="devices" title="Devices" />
      <LicensesSection organizationId={organization.id} />
      <RecordList organizationId={organization.id} what="integrations" title="Integrations" />
    </Stack>
  );
}

function RecordList({ organizationId, what, title }: { organizationId: string; what: 'devices' | 'integrations'; title: string }) {
  const records = useQuery({ queryKey: organizationKeys.records(organizationId, what), queryFn: ({ signal }) => fetchRecords(organizationId, what, signal) });
  return (
    <>
      <Title order={4}>{title}</Title>
      {records.isPending ? (
        <Loader size="sm" aria-label={`Loading ${title.toLowerCase()}`} />
      ) : (records.data ?? []).length === 0 ? (
        <Text c="dimmed">{`No ${title.toLowerCase()}.`}</Text>
      ) : (
        records.data?.map((r) => <Text key={r.id}>{r.name}</Text>)
      )}
    </>
  );
}
