import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Group, Loader, Modal, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { connectorMessages as text, type EsignatureAccount } from '@clinicrelay/contracts/connectors.ts';
import { connectorKeys, deleteEsignatureAccount, fetchEsignatureAccounts, fetchExternalLogin } from '../../api/connectors.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { formatDateTime } from '../../components/format.ts';
import { withFailureToast } from '../../components/notify.ts';
import { watchSignInWindow } from './sign-in-watch.ts';

const WINDOW_FEATURES = 'popup,width=560,height=720';

// back-office-b §2: the sign-in modal opens the provider's sign-in window and watches it for up to 120 s, then refreshes
// the accounts. The window is opened at the click (popup blockers allow only that) and sent to the URL once known.
function SignInModal({ opened, onClose, onDone }: { opened: boolean; onClose: () => void; onDone: () => Promise<unknown> }) {
  const [waiting, setWaiting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    setError(null);
    const win = window.open('about:blank', 'esignature-sign-in', WINDOW_FEATURES);
    if (!win) {
      setError('The sign-in window was blocked. Allow pop-up windows for this site and try again.');
      return;
    }
    setWaiting(true);
    try {
      const { url } = await fetchExternalLogin();
      win.location.href = url;
      await watchSignInWindow(win);
      if (!win.closed) win.close();
      await onDone();
      onClose();
    } catch (failure) {
      win.close();
      setError(`${text.signInFailed} ${errorDetails(failure).message}`);
    } finally {
      setWaiting(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Sign in to the e-signature provider">
      <Stack>
        <Text size="sm">
          A window opens at the provider&apos;s sign-in page. Sign in there; the account is listed here when the window closes (this page waits up to 2 minutes).
        </Text>
        {error && <Alert color="red">{error}</Alert>}
        {waiting && (
          <Group gap="xs">
            <Loader size="sm" />
            <Text size="sm">Waiting for the sign-in window…</Text>
          </Group>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void start()} loading={waiting}>
            Sign in
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** /admin/docusign (back-office-b §2 "E-signature connector"): the accounts, sign-in, delete. */
export function DocusignPage() {
  usePageTitle('E-signature accounts');
  const queryClient = useQueryClient();
  const accounts = useQuery({ queryKey: connectorKeys.accounts, queryFn: ({ signal }) => fetchEsignatureAccounts(signal) });
  const [signingIn, setSigningIn] = useState(false);
  const [deleting, setDeleting] = useState<EsignatureAccount | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: connectorKeys.accounts });
  const rows = accounts.data ?? [];

  return (
    <Stack>
      <Group justify="space-between">
        <Group gap="xs">
          <Title order={1}>E-signature accounts</Title>
          <Tooltip label="Provider: sandbox (test mode, no real e-signature account is used)" withArrow>
            <Badge color="yellow" variant="light">
              sandbox
            </Badge>
          </Tooltip>
        </Group>
        <Button onClick={() => setSigningIn(true)}>Sign in</Button>
      </Group>
      {accounts.error ? <Alert color="red">{errorDetails(accounts.error).message}</Alert> : null}
      <Table.ScrollContainer minWidth={600}>
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Id</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Account</Table.Th>
              <Table.Th>Connected</Table.Th>
              <Table.Th w={90}>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.id}>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {row.id}
                  </Text>
                </Table.Td>
                <Table.Td>{row.type}</Table.Td>
                <Table.Td>
                  <Text size="sm">{row.accountName}</Text>
                  <Text size="xs" c="dimmed">
                    {row.email}
                  </Text>
                </Table.Td>
                <Table.Td>{formatDateTime(row.createdAt)}</Table.Td>
                <Table.Td>
                  <Tooltip label="Delete" withArrow>
                    <ActionIcon variant="subtle" color="red" aria-label={`Delete ${row.accountName}`} onClick={() => setDeleting(row)}>
                      <TrashIcon />
                    </ActionIcon>
                  </Tooltip>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {accounts.isLoading && <Loader size="sm" aria-label="Loading the accounts" />}
      {accounts.data && rows.length === 0 && <EmptyState />}
      <SignInModal opened={signingIn} onClose={() => setSigningIn(false)} onDone={refresh} />
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete e-signature account"
        message={deleting && `Delete the e-signature account ${deleting.accountName}? Documents can no longer be sent for signature with it.`}
        confirmLabel="Delete"
        danger
        successMessage={text.deleted}
        onConfirm={async () => {
          if (!deleting) return;
          await withFailureToast(() => deleteEsignatureAccount(deleting.id), text.notDeleted);
          await refresh();
        }}
      />
    </Stack>
  );
}

function TrashIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M3 6h18" />
      <path d="M8 6V4h8v2" />
      <path d="M19 6l-1 14H6L5 6" />
    </svg>
  );
}
