import { Anchor, Badge, Group, Stack, Table, Text } from '@mantine/core';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import { errorDetails } from '../../components/error-details.ts';
import { notifyError } from '../../components/notify.ts';
import { fetchAttachmentPdf } from './api.ts';
import { formatSize, truncateName } from './release-text.ts';

// A deliberately simple viewer: the PDF rendition opens in the browser's own viewer in a new tab
// (no PDF.js, so no rotate or remove page here yet).
async function openPdf(messageId: string, attachmentId: string) {
  // Opened before the fetch so the browser treats it as a user action, not a pop-up.
  const tab = window.open('', '_blank');
  try {
    const blob = await fetchAttachmentPdf(messageId, attachmentId);
    const url = URL.createObjectURL(blob);
    if (tab) tab.location.href = url;
    else window.open(url, '_blank');
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (failure) {
    tab?.close();
    notifyError(errorDetails(failure).message);
  }
}

export function AttachmentList({ messageId, attachments }: { messageId: string; attachments: Message['attachments'] }) {
  if (attachments.length === 0) return <Text c="dimmed">No attachments added</Text>;
  return (
    <Table>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Size</Table.Th>
          <Table.Th>Details</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {attachments.map((attachment) => (
          <Table.Tr key={attachment.id}>
            <Table.Td>
              <Anchor component="button" type="button" title={attachment.fileName} onClick={() => void openPdf(messageId, attachment.id)}>
                {truncateName(attachment.fileName)}
              </Anchor>
            </Table.Td>
            <Table.Td>{formatSize(attachment.sizeInBytes)}</Table.Td>
            <Table.Td>
              <Stack gap={2}>
                <Group gap={4}>
                  {attachment.attachmentMeta?.confidentiality && <Badge variant="light">{attachment.attachmentMeta.confidentiality}</Badge>}
                  {attachment.previewAvailable === 'Processing' && <Badge color="yellow" variant="light">Processing</Badge>}
                  {attachment.previewAvailable === 'Failed' && <Badge color="red" variant="light">Preview failed</Badge>}
                </Group>
                {attachment.attachmentMeta?.documentDescription && (
                  <Text size="xs" c="dimmed">
                    {attachment.attachmentMeta.documentDescription}
                  </Text>
                )}
              </Stack>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
