import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Loader, Modal, Select, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminUser } from '@clinicrelay/contracts/admin-users.ts';
import { adminUserKeys, fetchAdminUser, fetchIdProofFile, resetIdProof, setIdProof } from '../../api/admin-users.ts';
import { errorDetails } from '../../components/error-details.ts';
import { notifySuccess } from '../../components/notify.ts';
import { ReadOnlyField } from '../../components/read-only-field.tsx';

// back-office-a §2 "ID Proofing modal": the current status, a status select (Passed true, Failed false), Show
// Identification and Reset Submission when a file was uploaded, Send Activation Email once a status is chosen.

const STATUSES = [
  { value: 'true', label: 'Passed' },
  { value: 'false', label: 'Failed' },
];

export function IdProofingModal({ userId, onClose }: { userId: string | null; onClose: () => void }) {
  const user = useQuery({ queryKey: adminUserKeys.one(userId ?? ''), queryFn: ({ signal }) => fetchAdminUser(userId!, signal), enabled: userId !== null });
  return (
    <Modal opened={userId !== null} onClose={onClose} title="ID Proofing">
      {user.error ? <Alert color="red">{errorDetails(user.error).message}</Alert> : user.data ? <IdProofingForm key={user.data.id} user={user.data} onClose={onClose} /> : <Loader aria-label="Loading the user" />}
    </Modal>
  );
}

function IdProofingForm({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<string | null>(null);
  const [sendEmail, setSendEmail] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminUserKeys.all });

  const run = async (work: () => Promise<{ message: string }>, close: boolean) => {
    setBusy(true);
    setError(null);
    try {
      notifySuccess((await work()).message);
      await refresh();
      if (close) onClose();
    } catch (failure) {
      setError(errorDetails(failure).message);
    } finally {
      setBusy(false);
    }
  };
  const showIdentification = async () => {
    try {
      const blob = await fetchIdProofFile(user.id);
      // A blob: URL in a new tab; the browser shows PDFs and images itself.
      const url = URL.createObjectURL(blob);
      window.open(url, '_blank', 'noopener');
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (failure) {
      setError(errorDetails(failure).message);
    }
  };

  return (
    <Stack>
      <ReadOnlyField label="Current status" value={user.idProofStatus ?? 'Not proofed'} />
      {error && <Alert color="red">{error}</Alert>}
      {user.idProofFileName && (
        <Group>
          <Button variant="light" onClick={() => void showIdentification()}>
            Show Identification
          </Button>
          <Button variant="light" color="red" loading={busy} onClick={() => void run(() => resetIdProof(user.id), false)}>
            Reset Submission
          </Button>
        </Group>
      )}
      <Select label="Status" placeholder="Choose a status" data={STATUSES} value={status} onChange={setStatus} />
      {status !== null && <Checkbox label="Send Activation Email" checked={sendEmail} onChange={(event) => setSendEmail(event.currentTarget.checked)} />}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button disabled={status === null} loading={busy} onClick={() => void run(() => setIdProof(user.id, status === 'true', sendEmail), true)}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}
