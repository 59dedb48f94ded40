import { useState } from 'react';
import { Button, Checkbox, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { displayAddress } from '@clinicrelay/contracts/addresses.ts';
import { DOCUMENT_SOURCE_STATUS as STATUS } from '@clinicrelay/contracts/document-sources.ts';
import { useSession } from '../../app/session-context.ts';
import { errorDetails } from '../../components/error-details.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { useAllOrganizationSources, useIntakeRules, useSaveUserAccess, useUserAccess } from './api.ts';
import { settingsText as text } from './settings-text.ts';

interface UserAccessModalProps {
  user: { id: string; fullName: string } | null;
  onClose: () => void;
}

/** One user's send permissions (PUT /api/users/{id}/documentsources) and intake rules (PUT /api/users/{id}/intakerules). */
export function UserAccessModal({ user, onClose }: UserAccessModalProps) {
  return (
    <Modal opened={user !== null} onClose={onClose} title={user ? `${user.fullName}: ${text.openUser.toLowerCase()}` : ''} size="lg">
      {/* Mounted only while open, so each opening starts from what the server has. */}
      {user && <UserAccessForm userId={user.id} onClose={onClose} />}
    </Modal>
  );
}

function UserAccessForm({ userId, onClose }: { userId: string; onClose: () => void }) {
  const { profile } = useSession();
  const organizationId = profile.organizationId ?? '';
  const access = useUserAccess(userId);
  const sources = useAllOrganizationSources(organizationId);
  const rules = useIntakeRules();
  if (!access.data || !sources.data || !rules.data) {
    const failure = access.error ?? sources.error ?? rules.error;
    return failure ? <Text c="red">{errorDetails(failure).message}</Text> : <Loader size="sm" aria-label="Loading" />;
  }
  const assigned = access.data;
  // Removed addresses are not offered, unless the user still has one (it is kept unless unticked).
  const sourceOptions = sources.data.items
    .filter((s) => s.status !== STATUS.Deleted || assigned.documentSourceIds.includes(s.id))
    .map((s) => ({ value: s.id, label: `${displayAddress(s.fullAddress)} (${s.type === 'Fax' ? 'fax' : 'Direct'}, ${s.statusName})` }));
  const ruleOptions = rules.data.map((r) => ({ value: r.id, label: r.name }));
  return <AccessChoices userId={userId} organizationId={organizationId} initial={assigned} sourceOptions={sourceOptions} ruleOptions={ruleOptions} onClose={onClose} />;
}

interface Option {
  value: string;
  label: string;
}

function AccessChoices(props: {
  userId: string;
  organizationId: string;
  initial: { documentSourceIds: string[]; intakeRuleIds: string[] };
  sourceOptions: Option[];
  ruleOptions: Option[];
  onClose: () => void;
}) {
  const { userId, organizationId, initial, sourceOptions, ruleOptions, onClose } = props;
  const [documentSourceIds, setSources] = useState(initial.documentSourceIds);
  const [intakeRuleIds, setRules] = useState(initial.intakeRuleIds);
  const save = useSaveUserAccess();
  const submit = async () => {
    try {
      await save.mutateAsync({ userId, organizationId, documentSourceIds, intakeRuleIds });
      notifySuccess(text.accessSaved);
      onClose();
    } catch (failure) {
      notifyError(errorDetails(failure).message);
    }
  };
  return (
    <Stack>
      <ChoiceGroup title={text.sendPermissions} hint={text.sendPermissionsHint} empty={text.noAddresses} options={sourceOptions} value={documentSourceIds} onChange={setSources} />
      <ChoiceGroup title={text.intakeRules} hint={text.intakeRulesHint} empty={text.noRules} options={ruleOptions} value={intakeRuleIds} onChange={setRules} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button onClick={() => void submit()} loading={save.isPending}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}

function ChoiceGroup({ title, hint, empty, options, value, onChange }: { title: string; hint: string; empty: string; options: Option[]; value: string[]; onChange: (next: string[]) => void }) {
  const all = options.map((o) => o.value);
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={3} size="h5">
          {title}
        </Title>
        <Button size="compact-xs" variant="light" aria-label={`${text.addAll}: ${title}`} disabled={options.length === 0 || all.every((v) => value.includes(v))} onClick={() => onChange([...new Set([...value, ...all])])}>
          {text.addAll}
        </Button>
      </Group>
      {options.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Checkbox.Group aria-label={title} description={hint} value={value} onChange={onChange}>
          <Stack gap={6} mt="xs">
            {options.map((o) => (
              <Checkbox key={o.value} value={o.value} label={o.label} />
            ))}
          </Stack>
        </Checkbox.Group>
      )}
    </Stack>
  );
}
