import { useState } from 'react';
import { ActionIcon, Group, Menu, Switch, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { adminUserMessages as text, type AdminUserListItem } from '@clinicrelay/contracts/admin-users.ts';
import { adminUserKeys, fetchAdminUsers, resendInvitation, resetPassword, setUserEnabled, syncUser } from '../../api/admin-users.ts';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { errorDetails } from '../../components/error-details.ts';
import type { ListColumn } from '../../components/list-page.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { AdminListArea } from '../admin-list-area.tsx';
import { IdProofingModal } from './id-proofing-modal.tsx';
import { UserEditModal } from './user-edit-modal.tsx';
import { UserOrganizationsModal } from './user-organizations-modal.tsx';

type Row = AdminUserListItem;

// Row actions that confirm first (§2: disable and enable "Are you sure?", reset password a confirmation).
type Confirming = { kind: 'disable' | 'enable' | 'reset'; row: Row } | null;

const columns: ListColumn<Row>[] = [
  { key: 'userName', header: 'User Name', sortable: true },
  // Sorting by organization puts it first and the user name second (multi-column sort, §2).
  { key: 'organizations', header: 'Organizations', sortable: true, render: (row) => row.organizations.join(', ') },
  { key: 'idProofStatus', header: 'ID Proof Status', width: 140, render: (row) => row.idProofStatus ?? (row.isSysAdmin ? '' : 'Not submitted') },
  { key: 'enabled', header: 'Enabled', width: 90 },
  { key: 'admin', header: 'Admin', width: 110, render: (row) => <AdminIcons row={row} /> },
];

/** /admin/users (back-office-a §2 "Users"). */
export function UsersPage() {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const filters = { sysAdmin: params.get('sysadmin') === 'true', showDisabled: params.get('disabled') === 'true' };
  const setFilter = (name: 'sysadmin' | 'disabled', on: boolean) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      if (on) next.set(name, 'true');
      else next.delete(name);
      next.delete('page');
      return next;
    });
  const [editing, setEditing] = useState<{ id: string | null } | null>(null);
  const [organizationsOf, setOrganizationsOf] = useState<Row | null>(null);
  const [idProofOf, setIdProofOf] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminUserKeys.all });

  // Actions without a confirmation step: toast the server's answer.
  const act = async (work: () => Promise<{ message: string }>) => {
    try {
      notifySuccess((await work()).message);
      await refresh();
    } catch (failure) {
      notifyError(errorDetails(failure).message);
    }
  };

  const confirm = async () => {
    if (!confirming) return;
    const { kind, row } = confirming;
    if (kind === 'reset') await resetPassword(row.id);
    else await setUserEnabled(row.id, kind === 'enable', row.isSysAdmin);
    await refresh();
  };

  return (
    <>
      <AdminListArea<Row, object>
        title="Users"
        entityName="User"
        queryKey={adminUserKeys.all}
        columns={columns}
        listDefaults={{ sortCol: 'userName' }}
        fetchPage={(state, signal) => fetchAdminUsers(state, filters, signal)}
        filters={{
          key: filters,
          controls: (
            <Group gap="md" pb={6}>
              <Tooltip label="System administrators only" withArrow>
                <ActionIcon
                  size="lg"
                  variant={filters.sysAdmin ? 'filled' : 'default'}
                  aria-label="System administrators only"
                  aria-pressed={filters.sysAdmin}
                  onClick={() => setFilter('sysadmin', !filters.sysAdmin)}
                >
                  <GlobeIcon />
                </ActionIcon>
              </Tooltip>
              <Switch label="Show disabled" checked={filters.showDisabled} onChange={(event) => setFilter('disabled', event.currentTarget.checked)} />
            </Group>
          ),
        }}
        onAdd={() => setEditing({ id: null })}
        onEdit={(row) => setEditing({ id: row.id })}
        rowName={(row) => row.userName}
        messages={{ saved: text.saved, deleted: text.saved }}
        actionsWidth={110}
        rowActions={(row) => (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label={`More actions for ${row.userName}`}>
                ⋯
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {row.isSysAdmin && row.enabled && <Menu.Item onClick={() => setConfirming({ kind: 'disable', row })}>Disable</Menu.Item>}
              {row.isSysAdmin && !row.enabled && <Menu.Item onClick={() => setConfirming({ kind: 'enable', row })}>Enable</Menu.Item>}
              {!row.isSysAdmin && <Menu.Item onClick={() => setOrganizationsOf(row)}>Organizations</Menu.Item>}
              {!row.isSysAdmin && <Menu.Item onClick={() => setIdProofOf(row.id)}>ID Proofing</Menu.Item>}
              {!row.isSysAdmin && <Menu.Item onClick={() => setConfirming({ kind: 'reset', row })}>Reset Password</Menu.Item>}
              {row.enabled && <Menu.Item onClick={() => void act(() => resendInvitation(row.id, row.userName))}>Resend Invitation</Menu.Item>}
              {!row.isSysAdmin && <Menu.Item onClick={() => void act(() => syncUser(row.id))}>Sync</Menu.Item>}
            </Menu.Dropdown>
          </Menu>
        )}
      />
      <UserEditModal editing={editing} onClose={() => setEditing(null)} />
      <UserOrganizationsModal user={organizationsOf} onClose={() => setOrganizationsOf(null)} />
      <IdProofingModal userId={idProofOf} onClose={() => setIdProofOf(null)} />
      <ConfirmModal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming?.kind === 'reset' ? 'Reset Password' : confirming?.kind === 'enable' ? 'Enable User' : 'Disable User'}
        message={confirming?.kind === 'reset' ? text.resetPasswordPrompt : confirming?.kind === 'enable' ? text.enablePrompt : text.disablePrompt}
        confirmLabel={confirming?.kind === 'reset' ? 'Send' : confirming?.kind === 'enable' ? 'Enable' : 'Disable'}
        danger={confirming?.kind === 'disable'}
        successMessage={confirming?.kind === 'reset' ? text.passwordResetSent : confirming?.kind === 'enable' ? text.enabled : text.disabled}
        onConfirm={confirm}
      />
    </>
  );
}

// §2: icons for organization admin, network admin and system admin, each with its name for screen readers.
function AdminIcons({ row }: { row: Row }) {
  const icons = [
    row.isOrgAdmin && { label: 'Organization admin', glyph: <BuildingIcon /> },
    row.isNetworkAdmin && { label: 'Network admin', glyph: <NetworkIcon /> },
    row.isSysAdmin && { label: 'System admin', glyph: <GlobeIcon /> },
  ].filter((icon) => icon !== false);
  return (
    <Group gap={6} wrap="nowrap">
      {icons.map((icon) => (
        <Tooltip key={icon.label} label={icon.label} withArrow>
          <span role="img" aria-label={icon.label} style={{ display: 'inline-flex' }}>
            {icon.glyph}
          </span>
        </Tooltip>
      ))}
    </Group>
  );
}

const svg = { width: 16, height: 16, viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round', 'aria-hidden': true } as const;

function GlobeIcon() {
  return (
    <svg {...svg}>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18" />
      <path d="M12 3a14 14 0 0 1 0 18a14 14 0 0 1 0-18" />
    </svg>
  );
}

function BuildingIcon() {
  return (
    <svg {...svg}>
      <path d="M4 21V5l8-2v18" />
      <path d="M12 9h8v12" />
      <path d="M2 21h20" />
      <path d="M8 8v.01M8 12v.01M8 16v.01M16 13v.01M16 17v.01" />
    </svg>
  );
}

function NetworkIcon() {
  return (
    <svg {...svg}>
      <circle cx="12" cy="5" r="2" />
      <circle cx="5" cy="19" r="2" />
      <circle cx="19" cy="19" r="2" />
      <path d="M12 7v5M12 12l-6 5M12 12l6 5" />
    </svg>
  );
}
