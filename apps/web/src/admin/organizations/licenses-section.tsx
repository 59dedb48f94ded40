import { Loader, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { licenseMessages as text } from '@clinicrelay/contracts/licenses.ts';
import { fetchOrganizationLicenses, licenseKeys } from '../../api/licenses.ts';
import { formatDate } from '../../components/format.ts';

// The organization's license keys (back-office-a "licenses"; the columns are the license grid's, organization aside).
export function LicensesSection({ organizationId }: { organizationId: string }) {
  const licenses = useQuery({ queryKey: licenseKeys.organization(organizationId), queryFn: ({ signal }) => fetchOrganizationLicenses(organizationId, signal) });
  return (
    <>
      <Title order={4}>Licenses</Title>
      {licenses.isPending ? (
        <Loader size="sm" aria-label="Loading licenses" />
      ) : (licenses.data ?? []).length === 0 ? (
        <Text c="dimmed">{text.noLicenses}</Text>
      ) : (
        <Table.ScrollContainer minWidth={600}>
          <Table aria-label="Licenses">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>License key</Table.Th>
                <Table.Th>License type</Table.Th>
                <Table.Th>Connector id</Table.Th>
                <Table.Th>Connector name</Table.Th>
                <Table.Th>Issued date</Table.Th>
                <Table.Th>Expiration date</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {licenses.data?.map((l) => (
                <Table.Tr key={l.id}>
                  <Table.Td style={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{l.licenseKey}</Table.Td>
                  <Table.Td>{l.licenseType}</Table.Td>
                  <Table.Td>{l.connectorId ?? ''}</Table.Td>
                  <Table.Td>{l.connectorName ?? ''}</Table.Td>
                  <Table.Td>{formatDate(l.issuedDate)}</Table.Td>
                  <Table.Td>{formatDate(l.expirationDate)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
