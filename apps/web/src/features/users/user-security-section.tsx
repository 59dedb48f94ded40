import { useState } from 'react';
import { Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { userDetailMessages as text, type OrgUserDetail, type UserApplication } from '@clinicrelay/contracts/users.ts';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { formatDateTime } from '../../components/format.ts';
import { orgUserKeys, removeApplication, removeAuthenticators } from './api.ts';

type Confirming = { kind: 'authenticator' } | { kind: 'application'; app: UserApplication } | null;

/** The user's two-factor authenticator and the applications they are signed in with, each removable after a confirmation. */
export function UserSecuritySection({ user }: { user: OrgUserDetail }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<Confirming>(null);
  const confirm = async () => {
    if (!confirming) return;
    if (confirming.kind === 'authenticator') await removeAuthenticators(user.id);
    else await removeApplication(user.id, confirming.app.id);
    await queryClient.invalidateQueries({ queryKey: orgUserKeys.detail(user.id) });
  };

  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Two-factor authentication
        </Title>
        <Group justify="space-between">
          <Text size="sm">{!user.twoFactorEnabled ? text.noAuthenticator : user.tokenAuthEnabled ? 'An authenticator app is set up for two-factor sign-in.' : 'Codes by email are set up for two-factor sign-in.'}</Text>
          {user.twoFactorEnabled && (
            <Button color="red" variant="light" onClick={() => setConfirming({ kind: 'authenticator' })}>
              Remove authenticator
            </Button>
          )}
        </Group>
      </Stack>

      <Stack gap="xs">
        <Title order={2} size="h4">
          Applications and devices
        </Title>
        {user.applications.length === 0 ? (
          <EmptyState text={text.noApplications} />
        ) : (
          <Table striped aria-label="Applications and devices">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Application</Table.Th>
                <Table.Th>IP address</Table.Th>
                <Table.Th>Signed in</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th>Sessions</Table.Th>
                <Table.Th w={100} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {user.applications.map((app) => (
                <Table.Tr key={app.id}>
                  <Table.Td title={app.userAgent ?? undefined}>{app.name}</Table.Td>
                  <Table.Td>{app.ipAddress}</Table.Td>
                  <Table.Td>{formatDateTime(app.signedInOn)}</Table.Td>
                  <Table.Td>{formatDateTime(app.lastUsedOn)}</Table.Td>
                  <Table.Td>{app.sessions}</Table.Td>
                  <Table.Td>
                    <Button size="xs" color="red" variant="subtle" aria-label={`Remove ${app.name}`} onClick={() => setConfirming({ kind: 'application', app })}>
                      Remove
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>

      <ConfirmModal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming?.kind === 'application' ? 'Remove Application' : 'Remove Authenticator'}
        message={confirming?.kind === 'application' ? `${text.removeApplicationPrompt} (${confirming.app.name})` : text.removeAuthenticatorPrompt}
        confirmLabel="Remove"
        danger
        successMessage={confirming?.kind === 'application' ? text.applicationRemoved : text.authenticatorsRemoved}
        onConfirm={confirm}
      />
    </Stack>
  );
}
