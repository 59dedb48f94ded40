import { useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { intakeMessages } from '@clinicrelay/contracts/intake.ts';
import { DIALOG_WIDTH_PX } from '@clinicrelay/contracts/constants.ts';
import { errorDetails } from '../../components/error-details.ts';
import { notifySuccess } from '../../components/notify.ts';
import { useDocumentSources, useTriageMessage } from './api.ts';

export interface TriageModalProps {
  opened: boolean;
  onClose: () => void;
  message: { id: string; subject: string; toAddress: string };
  onTriaged?: () => void;
}

// Triage moves a message to another of the organization's addresses. The server also takes a userId,
// but there is no call yet listing the organization's users to pick from, so the modal offers addresses.
export function TriageModal({ opened, onClose, message, onTriaged }: TriageModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Triage message" size={DIALOG_WIDTH_PX}>
      {opened && <TriageForm message={message} onClose={onClose} onTriaged={onTriaged} />}
    </Modal>
  );
}

function TriageForm({ message, onClose, onTriaged }: Omit<TriageModalProps, 'opened'>) {
  const sources = useDocumentSources();
  const triage = useTriageMessage();
  const [sourceId, setSourceId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const current = message.toAddress.toLowerCase();
  const options = (sources.data ?? [])
    .filter((s) => s.address.fullAddress.toLowerCase() !== current)
    .map((s) => ({ value: s.id, label: `${s.address.fullAddress} (${s.address.type})` }));

  const submit = async () => {
    if (!sourceId) {
      setError(intakeMessages.triageTargetRequired);
      return;
    }
    setError(null);
    try {
      await triage.mutateAsync({ id: message.id, documentSourceId: sourceId, userId: null });
      notifySuccess(intakeMessages.triaged);
      onClose();
      onTriaged?.();
    } catch (failure) {
      setError(errorDetails(failure).message);
    }
  };

  return (
    <Stack>
      <Text size="sm">
        Move “{message.subject || '(no subject)'}” to another of your organization’s addresses.
      </Text>
      <Select
        label="Address"
        placeholder={sources.isLoading ? 'Loading…' : 'Choose an address'}
        data={options}
        value={sourceId}
        onChange={setSourceId}
        searchable
        nothingFoundMessage="No other address"
      />
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
