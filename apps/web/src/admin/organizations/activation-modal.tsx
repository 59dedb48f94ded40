import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { organizationMessages as text } from '@clinicrelay/contracts/organizations.ts';
import { setActivation } from '../../api/organizations.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';

interface ActivationModalProps {
  organization: { id: string; name: string; isActivated: boolean } | null;
  onClose: () => void;
  onDone: () => Promise<unknown>;
}

// back-office-a §4: Activated <-> Not Activated, with the provisioning warning and, when activating, the send-email
// and create-default-records checkboxes (both on by default).
export function ActivationModal({ organization, onClose, onDone }: ActivationModalProps) {
  return (
    <Modal opened={organization !== null} onClose={onClose} title="Activation Status">
      {/* Mounted per opening, so each starts from the organization's state with both checkboxes on. */}
      {organization && <ActivationForm key={organization.id} organization={organization} onClose={onClose} onDone={onDone} />}
    </Modal>
  );
}

function ActivationForm({ organization, onClose, onDone }: ActivationModalProps & { organization: NonNullable<ActivationModalProps['organization']> }) {
  const [activated, setActivated] = useState(!organization.isActivated);
  const [sendEmail, setSendEmail] = useState(true);
  const [seedRecords, setSeedRecords] = useState(true);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    setBusy(true);
    try {
      await setActivation(organization.id, { activated, sendEmail: activated && sendEmail, seedRecords: activated && seedRecords });
      notifySuccess(text.activationUpdated);
      onClose();
    } catch {
      notifyError(text.activationFailed);
    } finally {
      setBusy(false);
      await onDone();
    }
  };

  return (
    <Stack>
      <Text fw={500}>{organization.name}</Text>
      <SegmentedControl
        aria-label="Activation status"
        value={activated ? 'true' : 'false'}
        onChange={(value) => setActivated(value === 'true')}
        data={[
          { value: 'true', label: 'Activated' },
          { value: 'false', label: 'Not Activated' },
        ]}
      />
      {activated && (
        <>
          <Alert color="yellow">{text.activationWarning}</Alert>
          <Checkbox label="Send activation email to the organization's Administrators" checked={sendEmail} onChange={(e) => setSendEmail(e.currentTarget.checked)} />
          <Checkbox label="Create the default records address" checked={seedRecords} onChange={(e) => setSeedRecords(e.currentTarget.checked)} />
        </>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button loading={busy} onClick={() => void save()}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}
