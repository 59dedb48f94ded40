import { useState } from 'react';
import { ActionIcon, Anchor, Badge, Button, Group, Menu, Switch, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { orgUserMessages as text, type OrgUser } from '@clinicrelay/contracts/users.ts';
import { resendInvitation, resetPassword } from '../../api/admin-users.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { useSession } from '../../app/session-context.ts';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { formatDateTime } from '../../components/format.ts';
import { ListPage, type ListColumn } from '../../components/list-page.tsx';
import { useListState } from '../../components/list-state.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { deleteOrgUser, orgUserKeys, setOrgUserEnabled, useOrgUsers } from './api.ts';
import { UserModal } from './user-modal.tsx';

type Row = OrgUser;
type Confirming = { kind: 'disable' | 'enable' | 'reset' | 'delete'; row: Row } | null;

// A network user (includeNetwork) is another organization's: shown with it, read-only.
const isNetworkRow = (row: Row) => row.organizationName !== undefined;
const NETWORK_PARAM = 'network';

const columns: ListColumn<Row>[] = [
  {
    key: 'name',
    header: 'Name',
    sortable: true,
    render: (row) =>
      isNetworkRow(row) ? (
        <Group gap={6} wrap="nowrap">
          <Text size="sm">{row.fullName}</Text>
          <Badge size="sm" variant="light" color="gray" title="A user of another organization of your network (read-only)">
            {row.organizationName}
          </Badge>
        </Group>
      ) : (
        <Anchor component={Link} to={`/settings/users/${row.id}`} size="sm">
          {row.fullName || row.userName}
        </Anchor>
      ),
  },
  { key: 'userName', header: 'Username', sortable: true },
  { key: 'role', header: 'Role', sortable: true },
  { key: 'jobFunction', header: 'Job function', sortable: true, render: (row) => row.jobFunction ?? '' },
  // Send permissions and intake rules are edited on their own screens; the list counts them.
  { key: 'sendPermissions', header: 'Send permissions' },
  { key: 'intakeRules', header: 'Intake rules' },
  { key: 'lastSignIn', header: 'Last sign-in', sortable: true, render: (row) => (row.lastSignIn ? formatDateTime(row.lastSignIn) : 'Never') },
  // Pending until the user sets a password from the account-creation mail.
  {
    key: 'invitationStatus',
    header: 'Invitation',
    render: (row) => (
      <Text size="sm" fw={row.invitationStatus === 'Pending' ? 600 : undefined}>
        {row.invitationStatus}
      </Text>
    ),
  },
  { key: 'enabled', header: 'Enabled', sortable: true },
];

const CONFIRM = {
  disable: { title: 'Disable User', message: text.disablePrompt, label: 'Disable', success: text.disabled },
  enable: { title: 'Enable User', message: text.enablePrompt, label: 'Enable', success: text.enabled },
  reset: { title: 'Reset Password', message: text.resetPasswordPrompt, label: 'Send', success: undefined },
  delete: { title: 'Delete User', message: text.deletePrompt, label: 'Delete', success: text.deleted },
} as const;

/** /settings/users (issue 13 §2): the organization's users, for its Administrators. */
export function UsersPage() {
  usePageTitle('Users');
  const { profile } = useSession();
  const queryClient = useQueryClient();
  const [state, setState] = useListState({ sortCol: 'name', pageSize: 25 });
  const [params, setParams] = useSearchParams();
  const includeNetwork = profile.isNetworkAdmin && params.get(NETWORK_PARAM) === '1';
  const list = useOrgUsers(state, includeNetwork);
  const toggleNetwork = (on: boolean) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      if (on) next.set(NETWORK_PARAM, '1');
      else next.delete(NETWORK_PARAM);
      next.delete('page');
      return next;
    });
  const [editing, setEditing] = useState<{ user: Row | null } | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: orgUserKeys.all });

  const resend = async (row: Row) => {
    try {
      notifySuccess((await resendInvitation(row.id, row.userName)).message);
    } catch (failure) {
      notifyError(errorDetails(failure).message);
    }
  };
  const confirm = async () => {
    if (!confirming) return;
    const { kind, row } = confirming;
    if (kind === 'delete') await deleteOrgUser(row.id);
    else if (kind === 'reset') notifySuccess((await resetPassword(row.id)).message);
    else await setOrgUserEnabled(row.id, kind === 'enable');
    await refresh();
  };

  const self = (row: Row) => row.id === profile.userId;
  const actions: ListColumn<Row> = {
    key: 'actions',
    header: 'Actions',
    width: 80,
    render: (row) =>
      isNetworkRow(row) ? null : (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" aria-label={`Actions for ${row.userName}`}>
              ⋯
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => setEditing({ user: row })}>Edit</Menu.Item>
            {row.enabled && !self(row) && <Menu.Item onClick={() => setConfirming({ kind: 'disable', row })}>Disable</Menu.Item>}
            {!row.enabled && <Menu.Item onClick={() => setConfirming({ kind: 'enable', row })}>Enable</Menu.Item>}
            {row.enabled && <Menu.Item onClick={() => setConfirming({ kind: 'reset', row })}>Reset Password</Menu.Item>}
            {row.enabled && row.invitationStatus === 'Pending' && <Menu.Item onClick={() => void resend(row)}>Resend Invitation</Menu.Item>}
            {!self(row) && (
              <Menu.Item color="red" onClick={() => setConfirming({ kind: 'delete', row })}>
                Delete
              </Menu.Item>
            )}
          </Menu.Dropdown>
        </Menu>
      ),
  };

  const shown = confirming ? CONFIRM[confirming.kind] : null;
  return (
    <>
      <ListPage
        title="Users"
        columns={[...columns, actions]}
        query={{ items: list.data?.items, totalCount: list.data?.totalCount, isLoading: list.isLoading, error: list.error }}
        state={state}
        onStateChange={setState}
        emptyText="There are no results matching your criteria."
        actions={<Button onClick={() => setEditing({ user: null })}>Add User</Button>}
        toolbar={
          profile.isNetworkAdmin && (
            <Switch label="Include network users" checked={includeNetwork} onChange={(event) => toggleNetwork(event.currentTarget.checked)} mb={8} />
          )
        }
      />
      <UserModal editing={editing} onClose={() => setEditing(null)} />
      <ConfirmModal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={shown?.title ?? ''}
        message={confirming && shown ? `${shown.message} (${confirming.row.fullName || confirming.row.userName})` : ''}
        confirmLabel={shown?.label}
        danger={confirming?.kind === 'delete' || confirming?.kind === 'disable'}
        successMessage={shown?.success}
        onConfirm={confirm}
      />
    </>
  );
}
