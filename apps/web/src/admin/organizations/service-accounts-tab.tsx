import { useState } from 'react';
import { Alert, Button, Group, Loader, NumberInput, Stack, Table, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { SERVICE_ACCOUNT_LIMIT_MAX, ALLOWED_ADDRESS_COUNT_MAX, serviceAccountMessages as text, type ServiceAccount } from '@clinicrelay/contracts/service-accounts.ts';
import { fetchServiceAccountLimit, saveAddressCount, saveServiceAccountLimit, serviceAccountKeys, useServiceAccounts } from '../../api/service-accounts.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';

interface TabProps {
  organization: { id: string; name: string; subdomain: string };
}

/** The organization's service accounts (API clients) and its service-account limit (back-office-a §2 serviceaccount). */
export function ServiceAccountsTab({ organization }: TabProps) {
  const accounts = useServiceAccounts(organization.id);
  return (
    <Stack>
      <LimitForm organizationId={organization.id} />
      <Title order={3}>Service accounts</Title>
      {accounts.isPending ? (
        <Loader aria-label="Loading the service accounts" />
      ) : accounts.error ? (
        <Alert color="red">{errorDetails(accounts.error).message}</Alert>
      ) : accounts.data.length === 0 ? (
        <EmptyState text={text.empty} />
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Client Id</Table.Th>
              <Table.Th>Enabled</Table.Th>
              <Table.Th>Client IP addresses</Table.Th>
              <Table.Th>Allowed Addresses</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {accounts.data.map((account) => (
              <Table.Tr key={account.id}>
                <Table.Td>{account.clientId}</Table.Td>
                <Table.Td>{account.serviceAccountEnabled ? 'Yes' : 'No'}</Table.Td>
                <Table.Td>{account.clientIpAddresses.join(', ') || '—'}</Table.Td>
                <Table.Td>
                  <AddressCountForm organizationId={organization.id} account={account} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

function LimitForm({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const limit = useQuery({ queryKey: serviceAccountKeys.limit(organizationId), queryFn: ({ signal }) => fetchServiceAccountLimit(organizationId, signal) });
  const [count, setCount] = useState<number | string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const value = count ?? limit.data?.count ?? '';
  const save = async () => {
    setError(null);
    try {
      await saveServiceAccountLimit(organizationId, Number(value));
      notifySuccess(text.limitSaved);
      setCount(null);
      await queryClient.invalidateQueries({ queryKey: serviceAccountKeys.limit(organizationId) });
    } catch (failure) {
      const { message, modelState } = errorDetails(failure);
      setError(modelState.count?.join(' ') ?? message);
    }
  };
  return (
    <Group align="flex-end">
      <NumberInput label="Service account limit" min={0} max={SERVICE_ACCOUNT_LIMIT_MAX} allowDecimal={false} allowNegative={false} w={220} value={value} error={error} onChange={setCount} disabled={limit.isPending} />
      <Button onClick={() => void save()} disabled={value === '' || count === null}>
        Save limit
      </Button>
    </Group>
  );
}

// §5: the allowed count never drops below the addresses listed; said here before the call, and by the server.
function AddressCountForm({ organizationId, account }: { organizationId: string; account: ServiceAccount }) {
  const queryClient = useQueryClient();
  const [count, setCount] = useState<number | string>(account.allowedAddressCount);
  const [error, setError] = useState<string | null>(null);
  const listed = account.clientIpAddresses.length;
  const save = async () => {
    if (Number(count) < listed) return setError(text.addressCountTooLow(listed));
    setError(null);
    try {
      await saveAddressCount(organizationId, account.id, Number(count));
      notifySuccess(text.addressCountUpdated);
      await queryClient.invalidateQueries({ queryKey: serviceAccountKeys.of(organizationId) });
    } catch (failure) {
      notifyError(text.addressCountFailed);
      setError(errorDetails(failure).modelState.count?.join(' ') ?? null);
    }
  };
  return (
    <Group align="flex-start" gap="xs" wrap="nowrap">
      <NumberInput aria-label={`Allowed Addresses of ${account.clientId}`} min={0} max={ALLOWED_ADDRESS_COUNT_MAX} allowDecimal={false} allowNegative={false} w={110} value={count} error={error} onChange={setCount} />
      <Button variant="light" onClick={() => void save()} disabled={count === '' || Number(count) === account.allowedAddressCount}>
        Update
      </Button>
    </Group>
  );
}

