import { useState } from 'react';
import { ActionIcon, Button, Group, Menu, Select, Switch } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import {
  API_CAPTURE_FEATURE,
  ORGANIZATION_QUEUES,
  organizationMessages as text,
  organizationQueueLabels,
  type OrganizationListItem,
  type OrganizationQueue,
} from '@clinicrelay/contracts/organizations.ts';
import {
  clearCancellation,
  deleteOrganization,
  downloadDirectAddresses,
  fetchOrganizations,
  organizationKeys,
  setApiCapture,
  setLoginAbility,
  syncOrganization,
} from '../../api/organizations.ts';
import { useFeatures } from '../../api/session.ts';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import type { ListColumn } from '../../components/list-page.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { saveFile } from '../../components/save-file.ts';
import { AdminListArea } from '../admin-list-area.tsx';
import { ActivationModal } from './activation-modal.tsx';

type Row = OrganizationListItem;

const queueOf = (value: string | null): OrganizationQueue | undefined => ORGANIZATION_QUEUES.find((q) => q === value);

const baseColumns: ListColumn<Row>[] = [
  { key: 'orgId', header: 'Id', width: 70 },
  { key: 'name', header: 'Organization', sortable: true },
  { key: 'networkName', header: 'Network', render: (row) => row.networkName ?? '' },
  { key: 'subdomain', header: 'Subdomain' },
  { key: 'resellerName', header: 'Reseller', render: (row) => row.resellerName ?? '' },
  { key: 'tierCode', header: 'Tier Code', render: (row) => row.tierCode ?? '' },
  { key: 'isActivated', header: 'Activation Status', render: (row) => (row.isActivated ? 'Activated' : 'Not Activated') },
  { key: 'isEnabled', header: 'Login Ability', render: (row) => (row.isEnabled ? 'Enabled' : 'Disabled') },
  { key: 'loginType', header: 'Login Type' },
];
const apiColumn: ListColumn<Row> = { key: 'apiCapture', header: 'API', render: (row) => (row.apiCapture ? 'Capturing' : '') };

// A row action: the call, its §8 toasts, then the list reloads.
async function run(call: () => Promise<unknown>, ok: string, failed: string, refresh: () => Promise<unknown>) {
  try {
    await call();
    notifySuccess(ok);
  } catch {
    notifyError(failed);
  }
  await refresh();
}

/** /admin/organizations (back-office-a §2 "Organizations"). */
export function OrganizationsPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const features = useFeatures();
  const apiCaptureOn = features.data?.enabled.includes(API_CAPTURE_FEATURE) ?? false;
  const cancelling = params.get('cancelling') === 'true';
  // The operators' queues (issue 26 §3b); ?awaitingActivation=true is the address older links and mails used.
  const status = queueOf(params.get('status')) ?? (params.get('awaitingActivation') === 'true' ? 'awaitingActivation' : undefined);
  const [activating, setActivating] = useState<Row | null>(null);
  const [clearing, setClearing] = useState<Row | null>(null);
  const [exporting, setExporting] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: organizationKeys.all });

  const exportAddresses = async () => {
    setExporting(true);
    try {
      const file = await downloadDirectAddresses();
      saveFile(file.blob, file.fileName);
    } catch {
      notifyError('The Direct addresses could not be exported.');
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <AdminListArea<Row, object>
        title="Organizations"
        entityName="organization"
        queryKey={organizationKeys.all}
        columns={apiCaptureOn ? [...baseColumns, apiColumn] : baseColumns}
        fetchPage={(state, signal) => fetchOrganizations(state, cancelling, signal, status)}
        filters={{
          key: `${cancelling}-${status ?? ''}`,
          controls: (
            <Group gap="lg" align="flex-end">
            <Select
              label="Status"
              placeholder="All"
              clearable
              w={200}
              data={ORGANIZATION_QUEUES.map((value) => ({ value, label: organizationQueueLabels[value] }))}
              value={status ?? null}
              onChange={(value) =>
                setParams((previous) => {
                  const next = new URLSearchParams(previous);
                  next.delete('awaitingActivation');
                  if (value) next.set('status', value);
                  else next.delete('status');
                  next.delete('page');
                  return next;
                })
              }
            />
            <Switch
              label="Show canceled or cancelling soon"
              checked={cancelling}
              onChange={(event) => {
                const on = event.currentTarget.checked;
                setParams((previous) => {
                  const next = new URLSearchParams(previous);
                  if (on) next.set('cancelling', 'true');
                  else next.delete('cancelling');
                  next.delete('page');
                  return next;
                });
              }}
            />
            </Group>
          ),
        }}
        // The edit page returns to the list as it was (search, sort, page).
        onAdd={() => void navigate('/admin/organizations/add', { state: { list: params.toString() } })}
        onEdit={(row) => void navigate(`/admin/organizations/${row.id}`, { state: { list: params.toString() } })}
        headerActions={
          <>
            {/* back-office-a §2 "import": the batch organization import (back-office-b Batch imports). */}
            <Button variant="default" onClick={() => void navigate('/admin/batchimports?tab=import')}>
              Import
            </Button>
            <Button variant="default" loading={exporting} onClick={() => void exportAddresses()}>
              Export Direct Addresses
            </Button>
          </>
        }
        remove={(row) =>
          deleteOrganization(row.id).catch((error: unknown) => {
            notifyError(text.deleteFailed);
            throw error;
          })
        }
        rowName={(row) => row.name}
        messages={{ saved: text.saved, deleted: text.deleted }}
        deletePrompt={(name) => `Delete the organization ${name}? Its users lose access to it. This cannot be undone.`}
        actionsWidth={150}
        rowActions={(row) => (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label={`More actions for ${row.name}`}>
                <DotsIcon />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => setActivating(row)}>{row.isActivated ? 'Deactivate' : 'Activate'}</Menu.Item>
              <Menu.Item onClick={() => void run(() => setLoginAbility(row.id, !row.isEnabled), text.loginAbilityUpdated, text.loginAbilityFailed, refresh)}>
                {row.isEnabled ? 'Disable login' : 'Enable login'}
              </Menu.Item>
              {row.isPendingCancellation && <Menu.Item onClick={() => setClearing(row)}>Clear cancellation</Menu.Item>}
              <Menu.Item
                onClick={() =>
                  void syncOrganization(row.id).then(
                    (result) => notifySuccess(result.sandbox ? `${text.syncStarted} (sandbox)` : text.syncStarted),
                    () => notifyError(text.syncFailed),
                  )
                }
              >
                Sync with Intercom
              </Menu.Item>
              {apiCaptureOn && (
                <Menu.Item onClick={() => void run(() => setApiCapture(row.id, !row.apiCapture), text.apiUpdated, text.apiFailed, refresh)}>
                  {row.apiCapture ? 'Stop API capture' : 'Start API capture'}
                </Menu.Item>
              )}
            </Menu.Dropdown>
          </Menu>
        )}
      />
      <ActivationModal organization={activating} onClose={() => setActivating(null)} onDone={refresh} />
      <ConfirmModal
        opened={clearing !== null}
        onClose={() => setClearing(null)}
        title="Clear cancellation"
        message={clearing && `Clear the pending cancellation of ${clearing.name}? The organization stays subscribed.`}
        confirmLabel="Clear cancellation"
        successMessage={text.cancellationCleared}
        onConfirm={async () => {
          if (!clearing) return;
          try {
            await clearCancellation(clearing.id);
          } catch (error) {
            notifyError(text.cancellationClearFailed);
            throw error;
          } finally {
            await refresh();
          }
        }}
      />
    </>
  );
}

function DotsIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
      <circle cx="5" cy="12" r="2" />
      <circle cx="12" cy="12" r="2" />
      <circle cx="19" cy="12" r="2" />
    </svg>
  );
}
