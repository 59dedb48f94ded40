import { type ReactNode, useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { errorDetails } from './error-details.ts';
import { notifySuccess } from './notify.ts';

export interface ConfirmModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  message: ReactNode;
  /** Runs on confirm; the modal closes when it resolves and shows the error when it rejects. */
  onConfirm: () => unknown;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Red confirm button, for deletions and other changes that cannot be undone. */
  danger?: boolean;
  /** Toast shown after a successful confirm. */
  successMessage?: string;
}

export function ConfirmModal({
  opened,
  onClose,
  title,
  message,
  onConfirm,
  confirmLabel = 'Confirm',
  cancelLabel = 'Cancel',
  danger = false,
  successMessage,
}: ConfirmModalProps) {
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setError(null);
    onClose();
  };
  const confirm = async () => {
    setLoading(true);
    setError(null);
    try {
      await onConfirm();
      if (successMessage) notifySuccess(successMessage);
      close();
    } catch (failure) {
      setError(errorDetails(failure).message);
    } finally {
      setLoading(false);
    }
  };

  return (
    // Closing mid-call would hide the outcome, so the modal stays put while loading.
    <Modal opened={opened} onClose={loading ? () => {} : close} title={title} closeOnClickOutside={!loading}>
      <Stack>
        {typeof message === 'string' ? <Text>{message}</Text> : message}
        {error && (
          <Alert color="red">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={loading}>
            {cancelLabel}
          </Button>
          <Button color={danger ? 'red' : undefined} loading={loading} onClick={() => void confirm()}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
