import { useState } from 'react';
import { Alert, Button, Card, Group, Loader, Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { serviceAccountMessages as text, type ServiceAccount } from '@clinicrelay/contracts/service-accounts.ts';
import { saveClientIpAddresses, serviceAccountKeys, useServiceAccounts } from '../../api/service-accounts.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { notifySuccess } from '../../components/notify.ts';

interface TabProps {
  organization: { id: string; name: string; subdomain: string };
}

// The spec names the ipaddresses tab only: here each service account's client IP addresses (IPv4, IPv6 or CIDR
// ranges, one per line) are edited, within the account's Allowed Addresses.
export function IpAddressesTab({ organization }: TabProps) {
  const accounts = useServiceAccounts(organization.id);
  if (accounts.isPending) return <Loader aria-label="Loading the service accounts" />;
  if (accounts.error) return <Alert color="red">{errorDetails(accounts.error).message}</Alert>;
  if (accounts.data.length === 0) return <EmptyState text={text.empty} />;
  return (
    <Stack>
      {accounts.data.map((account) => (
        <AddressesForm key={`${account.id}:${account.clientIpAddresses.join()}`} organizationId={organization.id} account={account} />
      ))}
    </Stack>
  );
}

const linesOf = (value: string) => value.split(/[\n,]/).map((line) => line.trim()).filter(Boolean);

function AddressesForm({ organizationId, account }: { organizationId: string; account: ServiceAccount }) {
  const queryClient = useQueryClient();
  const [value, setValue] = useState(account.clientIpAddresses.join('\n'));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const addresses = linesOf(value);
  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      await saveClientIpAddresses(organizationId, account.id, addresses);
      notifySuccess(text.addressesSaved);
      await queryClient.invalidateQueries({ queryKey: serviceAccountKeys.of(organizationId) });
    } catch (failure) {
      const { message, modelState } = errorDetails(failure);
      const reasons = Object.values(modelState).flat();
      setError(reasons.length ? reasons.join(' ') : message);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>{account.clientId}</Text>
          <Text size="sm" c={addresses.length > account.allowedAddressCount ? 'red' : 'dimmed'}>
            {addresses.length} of {account.allowedAddressCount} allowed addresses
          </Text>
        </Group>
        <Textarea
          label="Client IP addresses"
          description="One IPv4 or IPv6 address or CIDR range (e.g. 203.0.113.0/24) per line."
          autosize
          minRows={3}
          value={value}
          error={error}
          onChange={(event) => setValue(event.currentTarget.value)}
        />
        <Group>
          <Button loading={saving} onClick={() => void save()} disabled={addresses.join('\n') === account.clientIpAddresses.join('\n')}>
            Save addresses
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
