import { List, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { releaseMessages } from '@clinicrelay/contracts/messages.ts';
import { notifySuccess } from '../../components/notify.ts';
import type { SendAnswer } from './api.ts';
import { formatAddress } from './release-text.ts';

/**
 * The send's answer as a toast. When some recipients cannot be reached yet, or are reached only by the
 * sandbox, it names each one and why, and stays until closed: 5 seconds is too short to read a list
 * that says a document did not really go out (the plain success toast keeps its 5 s).
 */
export function notifySent(answer: SendAnswer): void {
  const notices = [...answer.waiting, ...answer.simulated];
  const message = answer.message || releaseMessages.sendSuccess;
  if (notices.length === 0) {
    notifySuccess(message);
    return;
  }
  notifications.show({
    color: answer.waiting.length > 0 ? 'yellow' : 'blue',
    autoClose: false,
    withCloseButton: true,
    title: message,
    message: (
      <Stack gap={4}>
        <List size="sm" spacing={4}>
          {notices.map((notice) => (
            <List.Item key={notice.recipient} style={{ overflowWrap: 'anywhere' }}>
              <Text span size="sm" fw={600}>
                {formatAddress(notice.recipient)}
              </Text>
              : {notice.reason}
            </List.Item>
          ))}
        </List>
      </Stack>
    ),
  });
}
