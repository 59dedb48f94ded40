import { useState } from 'react';
import { Anchor, Badge, Group, Stack, Table, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import { AttachmentViewer, type AttachmentViewerMode } from '../../components/document-viewer/attachment-viewer.tsx';
import { releaseKeys } from './api.ts';
import { TruncatedText } from '../../components/truncated-text.tsx';
import { formatSize } from './release-text.ts';

// Names up to 255 characters show cut to 60, the full name on hover and as the button's name.
const NAME_SHOWN = 60;

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
      <Table layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="45%">Name</Table.Th>
            <Table.Th w={90}>Size</Table.Th>
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
                    aria-label={attachment.fileName}
                    aria-current={isSelected ? 'true' : undefined}
                    fw={isSelected ? 600 : undefined}
                    size="sm"
                    display="block"
                    maw="100%"
                    onClick={() => setSelectedId(attachment.id)}
                  >
                    <TruncatedText text={attachment.fileName} maxChars={NAME_SHOWN} inherit span display="block" />
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
                      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
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
