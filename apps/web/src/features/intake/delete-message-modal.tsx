import { Text } from '@mantine/core';
import { releaseMessages } from '@clinicrelay/contracts/messages.ts';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { useDeleteIntakeMessage } from './api.ts';

export interface DeleteMessageModalProps {
  opened: boolean;
  onClose: () => void;
  message: { id: string; subject: string };
  onDeleted?: () => void;
}

/** The delete message modal (end-user §2); deletion finishes in the background, hence the wording. */
export function DeleteMessageModal({ opened, onClose, message, onDeleted }: DeleteMessageModalProps) {
  const remove = useDeleteIntakeMessage();
  return (
    <ConfirmModal
      opened={opened}
      onClose={onClose}
      title="Delete message"
      message={<Text style={{ overflowWrap: 'anywhere' }}>{`Delete “${message.subject || '(no subject)'}”? It leaves the Intake of everyone in your organization.`}</Text>}
      confirmLabel="Delete"
      danger
      successMessage={releaseMessages.messageDeleting}
      onConfirm={async () => {
        await remove.mutateAsync(message.id);
        onDeleted?.();
      }}
    />
  );
}
