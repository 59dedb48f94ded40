import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';

export interface ConfirmAttachmentsModalProps {
  opened: boolean;
  onClose: () => void;
  /** The attachments left out (unchecked). */
  unselected: { id: string; fileName: string }[];
  /** Go on with the checked attachments only. */
  onRemove: () => void;
  /** Check every attachment, then go on. */
  onIncludeAll: () => void;
}

// Before processing, printing or exporting with some attachments unchecked: leave them out, or include all
// (end-user §2 "Confirm attachments modal: remove or include all attachments").
export function ConfirmAttachmentsModal({ opened, onClose, unselected, onRemove, onIncludeAll }: ConfirmAttachmentsModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Confirm Attachments">
      <Stack>
        <Text>
          {unselected.length === 1 ? 'This attachment is not selected:' : `These ${unselected.length} attachments are not selected:`}
        </Text>
        <List size="sm">
          {unselected.map((a) => (
            <List.Item key={a.id} style={{ overflowWrap: 'anywhere' }}>
              {a.fileName}
            </List.Item>
          ))}
        </List>
        <Text size="sm" c="dimmed">
          Remove them from this action, or include all attachments.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="default" onClick={onRemove}>
            Remove
          </Button>
          <Button onClick={onIncludeAll}>Include All</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
