import { useMemo, useState } from 'react';
import { Button, Group, Paper, Select, Stack, Title } from '@mantine/core';
import { displayAddress } from '@clinicrelay/contracts/addresses.ts';
import { intakeMessages } from '@clinicrelay/contracts/intake.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { ListPage, type ListColumn } from '../../components/list-page.tsx';
import { useListState } from '../../components/list-state.ts';
import { useDeleteIntakeRule, useIntakeRules, useOrganizationUsers, type IntakeRuleView } from './api.ts';
import { RuleModal } from './rule-modal.tsx';
import { settingsText as text } from './settings-text.ts';
import { UserAccessModal } from './user-access-modal.tsx';

/**
 * /settings/rules (issue 13 §4): the organization's intake rules, which decide who sees which received messages, and
 * per user the addresses they may send from and the rules they receive by.
 */
export function RulesPage() {
  usePageTitle(text.rulesTitle);
  return (
    <Stack gap="xl">
      <RulesSection />
      <UserAccessSection />
    </Stack>
  );
}

function RulesSection() {
  const [state, setState] = useListState({ sortCol: 'name' });
  const rules = useIntakeRules();
  const remove = useDeleteIntakeRule();
  const [editing, setEditing] = useState<IntakeRuleView | 'new' | null>(null);
  const [deleting, setDeleting] = useState<IntakeRuleView | null>(null);

  // GET /api/intakerules answers every rule at once: search, sort and pages are the list's own.
  const page = useMemo(() => {
    if (!rules.data) return undefined;
    const search = state.search.trim().toLowerCase();
    const matching = rules.data.filter((r) => !search || [r.name, r.fromAddress, ...r.toAddresses].some((v) => v?.toLowerCase().includes(search)));
    const sorted = [...matching].sort((a, b) => a.name.localeCompare(b.name) * (state.sortDir === 'desc' ? -1 : 1));
    const start = (state.page - 1) * state.pageSize;
    return { items: sorted.slice(start, start + state.pageSize), totalCount: matching.length };
  }, [rules.data, state]);

  const columns: ListColumn<IntakeRuleView>[] = [
    { key: 'name', header: 'Name', sortable: true },
    { key: 'fromAddress', header: 'From (external)', render: (r) => (r.fromAddress ? displayAddress(r.fromAddress) : text.anySender) },
    { key: 'toAddresses', header: 'Applies to', render: (r) => (r.toAddresses.length ? r.toAddresses.map(displayAddress).join(', ') : text.anyAddress) },
    { key: 'sourceType', header: 'Source type', render: (r) => r.sourceType ?? 'Any' },
    { key: 'isGlobal', header: 'Users', render: (r) => (r.isGlobal ? text.everyUser : text.usersGiven) },
    {
      key: 'actions',
      header: 'Actions',
      render: (r) => (
        <Group gap={4} wrap="nowrap">
          <Button size="compact-xs" variant="subtle" aria-label={`Edit ${r.name}`} onClick={() => setEditing(r)}>
            Edit
          </Button>
          <Button size="compact-xs" variant="subtle" color="red" aria-label={`Delete ${r.name}`} onClick={() => setDeleting(r)}>
            Delete
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <>
      <ListPage
        title={text.rulesTitle}
        columns={columns}
        query={{ items: page?.items, totalCount: page?.totalCount, isLoading: rules.isLoading, error: rules.error }}
        state={state}
        onStateChange={setState}
        emptyText={text.rulesEmpty}
        actions={<Button onClick={() => setEditing('new')}>{text.addRule}</Button>}
      />
      <RuleModal opened={editing !== null} onClose={() => setEditing(null)} rule={editing === 'new' ? null : editing} />
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete intake rule"
        message={deleting ? text.deleteRulePrompt(deleting.name) : ''}
        confirmLabel="Delete"
        danger
        onConfirm={async () => {
          if (deleting) await remove.mutateAsync(deleting.id);
        }}
        successMessage={intakeMessages.intakeRuleDeleted}
      />
    </>
  );
}

function UserAccessSection() {
  const users = useOrganizationUsers();
  const [userId, setUserId] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const chosen = users.data?.items.find((u) => u.id === userId) ?? null;
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={2} size="h4">
          {text.usersTitle}
        </Title>
        <Group align="flex-end">
          <Select
            label={text.userPicker}
            placeholder="Choose a user"
            searchable
            data={(users.data?.items ?? []).map((u) => ({ value: u.id, label: `${u.fullName} (${u.userName})` }))}
            value={userId}
            onChange={setUserId}
            w={360}
          />
          <Button disabled={!chosen} onClick={() => setOpen(true)}>
            {text.openUser}
          </Button>
        </Group>
      </Stack>
      <UserAccessModal user={open && chosen ? { id: chosen.id, fullName: chosen.fullName } : null} onClose={() => setOpen(false)} />
    </Paper>
  );
}
