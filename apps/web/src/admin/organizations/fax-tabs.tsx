import { useState, type ReactNode } from 'react';
import { ActionIcon, Alert, Badge, Button, Code, Group, Loader, Select, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatFaxNumber } from '@clinicrelay/contracts/addresses.ts';
import { efaxAccountTypeLabels, faxAccountMessages as text, type EfaxAccountType, type FaxAccounts } from '@clinicrelay/contracts/fax-accounts.ts';
import { addWestfaxNumber, deleteWestfaxAccount, faxAccountKeys, fetchFaxAccounts, removeWestfaxNumber, saveEfaxAccount, saveWestfaxAccount, syncWestfaxAccount } from '../../api/fax-accounts.ts';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { formatDateTime } from '../../components/format.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';

interface TabProps {
  organization: { id: string; name: string; subdomain: string };
}

// back-office-a §2 "Fax accounts": the efax and westfax tabs. Both go through the fax-provider interface, whose only
// adapter is the sandbox: the tabs say so.

/** Loads the organization's fax accounts; without a subdomain, only the 'No SubDomain' warning shows. */
function FaxAccountPanel({ organization, children }: TabProps & { children: (accounts: FaxAccounts, refresh: () => Promise<void>) => ReactNode }) {
  const queryClient = useQueryClient();
  const accounts = useQuery({ queryKey: faxAccountKeys.of(organization.id), queryFn: ({ signal }) => fetchFaxAccounts(organization.id, signal) });
  if (accounts.isPending) return <Loader aria-label="Loading the fax accounts" />;
  if (accounts.error) return <Alert color="red">{errorDetails(accounts.error).message}</Alert>;
  const refresh = () => queryClient.invalidateQueries({ queryKey: faxAccountKeys.of(organization.id) });
  return (
    <Stack>
      <Alert color="gray" variant="light">
        {text.sandbox}
      </Alert>
      {accounts.data.subdomain.trim() ? (
        children(accounts.data, refresh)
      ) : (
        <Alert color="yellow" title={text.noSubdomain}>
          {text.noSubdomainDetail}
        </Alert>
      )}
    </Stack>
  );
}

/** Runs a provider call: its message as a toast on success, the server's message on failure. */
async function run<T extends { message: string }>(call: () => Promise<T>, refresh: () => Promise<void>): Promise<T | null> {
  try {
    const result = await call();
    notifySuccess(result.message);
    await refresh();
    return result;
  } catch (failure) {
    notifyError(errorDetails(failure).message);
    return null;
  }
}

function CopyGroupName({ groupName }: { groupName: string }) {
  const clipboard = useClipboard();
  return (
    <Group gap="xs">
      <Text>
        Group Name: <Code>{groupName}</Code>
      </Text>
      <Tooltip label="Copy" withArrow>
        <ActionIcon
          variant="subtle"
          aria-label="Copy Group Name"
          onClick={() => {
            clipboard.copy(groupName);
            notifySuccess(text.groupNameCopied);
          }}
        >
          <CopyIcon />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

export function EfaxTab({ organization }: TabProps) {
  return <FaxAccountPanel organization={organization}>{(accounts, refresh) => <EfaxForm organizationId={organization.id} accounts={accounts} refresh={refresh} />}</FaxAccountPanel>;
}

function EfaxForm({ organizationId, accounts, refresh }: { organizationId: string; accounts: FaxAccounts; refresh: () => Promise<void> }) {
  const account = accounts.eFaxAccount;
  const [accountType, setAccountType] = useState<EfaxAccountType>(account?.accountType ?? 'Kno2EFaxAccount');
  const [groupName, setGroupName] = useState(account?.groupName ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      const result = await saveEfaxAccount({ organizationId, accountType, ...(groupName.trim() ? { groupName: groupName.trim() } : {}) }, account === null);
      notifySuccess(result.message);
      setGroupName(result.eFaxAccount.groupName);
      await refresh();
    } catch (failure) {
      const { message, modelState } = errorDetails(failure);
      notifyError(message);
      setError(modelState.groupName?.join(' ') ?? null);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack maw={520}>
      {account ? <CopyGroupName groupName={account.groupName} /> : <Text c="dimmed">This organization has no eFax account yet.</Text>}
      <Select
        label="Account type"
        allowDeselect={false}
        data={Object.entries(efaxAccountTypeLabels).map(([value, label]) => ({ value, label }))}
        value={accountType}
        onChange={(value) => value && setAccountType(value as EfaxAccountType)}
      />
      <TextInput
        label="Group Name"
        required={accountType === 'EFaxAccount'}
        description={accountType === 'Kno2EFaxAccount' ? `Leave empty to use the subdomain (${accounts.subdomain}).` : 'The customer’s own eFax group.'}
        maxLength={255}
        value={groupName}
        error={error}
        onChange={(event) => setGroupName(event.currentTarget.value)}
      />
      <Group>
        <Button loading={saving} onClick={() => void save()}>
          {account ? 'Save eFax account' : 'Create eFax account'}
        </Button>
      </Group>
    </Stack>
  );
}

export function WestfaxTab({ organization }: TabProps) {
  return <FaxAccountPanel organization={organization}>{(accounts, refresh) => <WestfaxAccountView organization={organization} accounts={accounts} refresh={refresh} />}</FaxAccountPanel>;
}

function WestfaxAccountView({ organization, accounts, refresh }: TabProps & { accounts: FaxAccounts; refresh: () => Promise<void> }) {
  const account = accounts.westFaxAccount;
  const [password, setPassword] = useState<string | null>(null);
  const [number, setNumber] = useState('');
  const [numberError, setNumberError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const generate = async () => {
    const result = await run(() => saveWestfaxAccount(organization.id), refresh);
    if (result) setPassword(result.password ?? null);
  };
  const add = async () => {
    setNumberError(null);
    try {
      const result = await addWestfaxNumber(organization.id, number);
      notifySuccess(result.message);
      setNumber('');
      await refresh();
    } catch (failure) {
      const { message, modelState } = errorDetails(failure);
      setNumberError(modelState.number?.join(' ') ?? message);
    }
  };

  if (!account) {
    return (
      <Stack align="flex-start">
        <Text c="dimmed">This organization has no WestFax account yet.</Text>
        <Button onClick={() => void generate()}>Generate sub account</Button>
      </Stack>
    );
  }
  return (
    <Stack maw={640}>
      <Group gap="xs">
        <Text>
          Username: <Code>{account.username}</Code>
        </Text>
        <Badge variant="light">{account.syncedAt ? `Synced ${formatDateTime(account.syncedAt)}` : 'Never synced'}</Badge>
      </Group>
      {password && (
        <Alert color="blue" title="New password" withCloseButton onClose={() => setPassword(null)}>
          <Code>{password}</Code> — shown once; give it to the organization now.
        </Alert>
      )}
      <Group>
        <Button variant="default" onClick={() => void generate()}>
          Reset password
        </Button>
        <Button variant="default" onClick={() => void run(() => syncWestfaxAccount(organization.id), refresh)}>
          Sync
        </Button>
        <Button color="red" variant="light" onClick={() => setDeleting(true)}>
          Delete
        </Button>
      </Group>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Fax numbers</Table.Th>
            <Table.Th w={60} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {account.numbers.map((n) => (
            <Table.Tr key={n}>
              <Table.Td>{formatFaxNumber(n)}</Table.Td>
              <Table.Td>
                <Button size="compact-xs" variant="subtle" color="red" aria-label={`Remove ${formatFaxNumber(n)}`} onClick={() => void run(() => removeWestfaxNumber(organization.id, n), refresh)}>
                  Remove
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {account.numbers.length === 0 && <Text c="dimmed">No fax numbers on this account.</Text>}
      <Group align="flex-start">
        <TextInput label="Fax number" placeholder="(503) 555-0101" maxLength={20} value={number} error={numberError} onChange={(event) => setNumber(event.currentTarget.value)} />
        <Button mt={25} disabled={!number.trim()} onClick={() => void add()}>
          Add number
        </Button>
      </Group>
      <ConfirmModal
        opened={deleting}
        onClose={() => setDeleting(false)}
        title="Delete WestFax account"
        message={`Delete the WestFax account of ${organization.name}?`}
        confirmLabel="Delete"
        danger
        successMessage={text.westfaxDeleted}
        onConfirm={async () => {
          await deleteWestfaxAccount(organization.id);
          await refresh();
        }}
      />
    </Stack>
  );
}

function CopyIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <rect x="9" y="9" width="13" height="13" rx="2" />
      <path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1" />
    </svg>
  );
}
