import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { formatIsoDate, parseTypedDate } from '@clinicrelay/contracts/dates.ts';
import type { ComposeValues } from './release-compose-form.ts';
import { formatAddress, isFaxNumber } from './release-text.ts';

const wrap = { overflowWrap: 'anywhere' } as const;

function patientName(p: ComposeValues['patient']) {
  return [p.firstName, p.middleName, p.lastName].filter((part) => part.trim() !== '').join(' ');
}

export interface ReviewModalProps {
  opened: boolean;
  onClose: () => void;
  values: ComposeValues;
  /** The files that leave with the message: the draft's, or on a forward not saved yet, the original's. */
  attachmentNames: string[];
  sending: boolean;
  onConfirm: () => void;
}

/** Review and Send: what is about to leave, before it does (Send → Review and Send → Confirm). */
export function ReviewModal({ opened, onClose, values, attachmentNames, sending, onConfirm }: ReviewModalProps) {
  const name = patientName(values.patient);
  const birthDate = formatIsoDate(parseTypedDate(values.patient.birthDate));
  // Nothing can be sent without a recipient and a From: Confirm waits for both.
  const ready = values.to.length > 0 && Boolean(values.fromAddress);
  return (
    <Modal opened={opened} onClose={sending ? () => {} : onClose} title="Review and Send">
      <Stack>
        <div>
          <Text fw={500}>Recipients</Text>
          {values.to.length === 0 ? (
            <Text c="dimmed">No recipients</Text>
          ) : (
            <List size="sm">
              {values.to.map((address) => (
                <List.Item key={address} style={wrap}>
                  {isFaxNumber(address) ? `Fax ${formatAddress(address)}` : address}
                </List.Item>
              ))}
            </List>
          )}
        </div>
        <Text size="sm" style={wrap}>
          From: {values.fromAddress ? formatAddress(values.fromAddress) : 'not chosen'}
        </Text>
        <Text size="sm" style={wrap}>
          Subject: {values.subject || '(no subject)'}
        </Text>
        <Text size="sm" style={wrap}>
          Patient: {name || 'none'}
          {birthDate && ` (born ${birthDate})`}
        </Text>
        <div>
          <Text size="sm">Attachments: {attachmentNames.length}</Text>
          {attachmentNames.length > 0 && (
            <List size="sm">
              {attachmentNames.map((fileName, index) => (
                <List.Item key={`${index}-${fileName}`} style={wrap}>
                  {fileName}
                </List.Item>
              ))}
            </List>
          )}
        </div>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={sending}>
            Cancel
          </Button>
          <Button loading={sending} disabled={!ready} onClick={onConfirm}>
            Confirm
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
