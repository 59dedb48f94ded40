import { useState } from 'react';
import { Anchor, Badge, Group, Stack, Table, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import { AttachmentViewer, type AttachmentViewerMode } from '../../components/document-viewer/attachment-viewer.tsx';
import { releaseKeys } from './api.ts';
import { formatSize, truncateName } from './release-text.ts';

interface AttachmentListProps {
  messageId: string;
  attachments: Message['attachments'];
  /** edit on the compose page (page tools), view on /release/{id} (end-user §2). */
  mode: AttachmentViewerMode;
}

/** The message's attachments; the selected one (the first until the user picks another) shows in the viewer below. */
export function AttachmentList({ messageId, attachments, mode }: AttachmentListProps) {
  const queryClient = useQueryClient();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  if (attachments.length === 0) return <Text c="dimmed">No attachments added</Text>;
  const selected = attachments.find((a) => a.id === selectedId) ?? attachments[0];
  const refreshMessage = () => void queryClient.invalidateQueries({ queryKey: releaseKeys.message(messageId) });

  return (
    <Stack>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Size</Table.Th>
            <Table.Th>Details</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {attachments.map((attachment) => {
            const isSelected = attachment.id === selected?.id;
            return (
              <Table.Tr key={attachment.id} bg={isSelected ? 'var(--mantine-primary-color-light)' : undefined}>
                <Table.Td>
                  <Anchor
                    component="button"
                    type="button"
                    title={attachment.fileName}
                    aria-current={isSelected ? 'true' : undefined}
                    fw={isSelected ? 600 : undefined}
                    onClick={() => setSelectedId(attachment.id)}
                  >
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
            );
          })}
        </Table.Tbody>
      </Table>
      {selected && (
        <section aria-label={`Document viewer: ${selected.fileName}`}>
          <AttachmentViewer messageId={messageId} attachment={selected} mode={mode} onChanged={refreshMessage} onPollStatus={refreshMessage} />
        </section>
      )}
    </Stack>
  );
}
