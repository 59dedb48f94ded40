import { useState } from 'react';
import { Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useSession } from '../../app/session-context.ts';
import { accessOptions, accessText, ChoiceGroup, type ChoiceOption } from '../../components/access-choices.tsx';
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
  const { sourceOptions, ruleOptions } = accessOptions(sources.data.items, rules.data, assigned.documentSourceIds);
  return <AccessChoices userId={userId} organizationId={organizationId} initial={assigned} sourceOptions={sourceOptions} ruleOptions={ruleOptions} onClose={onClose} />;
}

function AccessChoices(props: {
  userId: string;
  organizationId: string;
  initial: { documentSourceIds: string[]; intakeRuleIds: string[] };
  sourceOptions: ChoiceOption[];
  ruleOptions: ChoiceOption[];
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
      <ChoiceGroup title={accessText.sendPermissions} hint={accessText.sendPermissionsHint} empty={accessText.noAddresses} options={sourceOptions} value={documentSourceIds} onChange={setSources} />
      <ChoiceGroup title={accessText.intakeRules} hint={accessText.intakeRulesHint} empty={accessText.noRules} options={ruleOptions} value={intakeRuleIds} onChange={setRules} />
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
