import { useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { intakeMessages } from '@clinicrelay/contracts/intake.ts';
import { DIALOG_WIDTH_PX, SEARCH_DEBOUNCE_MS } from '@clinicrelay/contracts/constants.ts';
import { useDocumentSources } from '../../api/document-sources.ts';
import { useSession } from '../../app/session-context.ts';
import { errorDetails } from '../../components/error-details.ts';
import { displayAddress } from '@clinicrelay/contracts/addresses.ts';
import { notifySuccess } from '../../components/notify.ts';
import { useOrganizationUsers, useTriageMessage } from './api.ts';

export interface TriageModalProps {
  opened: boolean;
  onClose: () => void;
  message: { id: string; subject: string; toAddress: string };
  onTriaged?: () => void;
}

// Triage moves a message to another of the organization's addresses, assigns it to one of its users, or
// both. Listing the members (GET /api/users) is for Administrators, so a User triages to an address only.
export function TriageModal({ opened, onClose, message, onTriaged }: TriageModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Triage message" size={DIALOG_WIDTH_PX}>
      {opened && <TriageForm message={message} onClose={onClose} onTriaged={onTriaged} />}
    </Modal>
  );
}

function TriageForm({ message, onClose, onTriaged }: Omit<TriageModalProps, 'opened'>) {
  const { profile } = useSession();
  const isAdministrator = profile.roles.includes('Administrator');
  const sources = useDocumentSources();
  const triage = useTriageMessage();
  const [sourceId, setSourceId] = useState<string | null>(null);
  const [userId, setUserId] = useState<string | null>(null);
  const [userSearch, setUserSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(userSearch, SEARCH_DEBOUNCE_MS);
  const [error, setError] = useState<string | null>(null);
  const current = message.toAddress.toLowerCase();
  const options = (sources.data ?? [])
    .filter((s) => s.address.fullAddress.toLowerCase() !== current)
    .map((s) => ({ value: s.id, label: `${displayAddress(s.address.fullAddress)} (${s.address.type})` }));

  // The typed text is the chosen user's label once one is picked; search only while choosing.
  const users = useOrganizationUsers(userId ? '' : debouncedSearch.trim(), isAdministrator);
  const userOptions = (users.data?.items ?? []).map((u) => ({ value: u.id, label: `${u.fullName} (${u.userName})` }));

  const submit = async () => {
    if (!sourceId && !userId) {
      setError(intakeMessages.triageTargetRequired);
      return;
    }
    setError(null);
    try {
      await triage.mutateAsync({ id: message.id, documentSourceId: sourceId, userId });
      notifySuccess(intakeMessages.triaged);
      onClose();
      onTriaged?.();
    } catch (failure) {
      setError(errorDetails(failure).message);
    }
  };

  return (
    <Stack>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {isAdministrator
          ? `Move “${message.subject || '(no subject)'}” to another of your organization’s addresses, assign it to one of its users, or both.`
          : `Move “${message.subject || '(no subject)'}” to another of your organization’s addresses.`}
      </Text>
      <Select
        label="Address"
        placeholder={sources.isLoading ? 'Loading…' : 'Choose an address'}
        data={options}
        value={sourceId}
        onChange={setSourceId}
        allowDeselect={false}
        searchable
        clearable={isAdministrator}
        nothingFoundMessage="No other address"
      />
      {isAdministrator ? (
        <Select
          label="User"
          placeholder={users.isLoading ? 'Loading…' : 'Search by name or user name'}
          data={userOptions}
          value={userId}
          onChange={setUserId}
          allowDeselect={false}
          searchable
          clearable
          searchValue={userSearch}
          onSearchChange={setUserSearch}
          // The server has filtered already; the picker shows what it answered.
          filter={({ options: all }) => all}
          nothingFoundMessage={users.isFetching ? 'Searching…' : 'No user matches'}
        />
      ) : (
        <Text size="xs" c="dimmed">
          Only administrators can triage a message to a user; the list of users is not available to you.
        </Text>
      )}
      {error && <Alert color="red">{error}</Alert>}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={triage.isPending}>
          Cancel
        </Button>
        <Button loading={triage.isPending} onClick={() => void submit()}>
          Triage
        </Button>
      </Group>
    </Stack>
  );
}
