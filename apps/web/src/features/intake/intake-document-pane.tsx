import { useEffect, useRef } from 'react';
import { Box, Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { AttachmentViewer } from '../../components/document-viewer/attachment-viewer.tsx';
import { TruncatedText } from '../../components/truncated-text.tsx';
import { intakeKeys, markAttachmentRead } from './api.ts';
import { formatSize, type Attachment } from './intake-attachments.tsx';
import { isStructured } from './intake-export.ts';

// Below the app header (60 px) with a margin; the page frame leaves room for the viewer's two toolbars.
const PANE_TOP_PX = 76;
const FRAME_MAX_HEIGHT = `calc(100vh - ${PANE_TOP_PX + 190}px)`;

export interface IntakeDocumentPaneProps {
  messageId: string;
  attachment: Attachment | undefined;
  /** Side by side with the message: the pane stays in view while the message scrolls. */
  sticky: boolean;
}

/** The viewed attachment of an Intake message, in the document viewer (rotate, remove, restore while it is selected). */
export function IntakeDocumentPane({ messageId, attachment, sticky }: IntakeDocumentPaneProps) {
  const queryClient = useQueryClient();
  const read = useRef(new Set<string>());

  // Each attachment viewed is marked read once (the Activity modal lists the reads).
  useEffect(() => {
    if (!attachment || read.current.has(attachment.id)) return;
    read.current.add(attachment.id);
    markAttachmentRead(messageId, attachment.id).catch(() => undefined);
  }, [messageId, attachment]);

  if (!attachment) return null;
  const refresh = () => void queryClient.invalidateQueries({ queryKey: intakeKeys.message(messageId) });
  const editable = attachment.isSelected && !isStructured(attachment);
  return (
    <Box
      component="section"
      aria-label={`Document viewer: ${attachment.fileName}`}
      // A scrolling pane is reachable by keyboard even when what it shows has nothing to focus (WCAG 2.1.1).
      tabIndex={sticky ? 0 : undefined}
      style={
        sticky
          ? { position: 'sticky', top: PANE_TOP_PX, maxHeight: `calc(100vh - ${PANE_TOP_PX + 56}px)`, overflowY: 'auto', overflowX: 'hidden' }
          : { overflowX: 'hidden' }
      }
    >
      <Group gap="xs" wrap="nowrap" mb="xs">
        <TruncatedText text={attachment.fileName} fw={600} style={{ flex: 1, minWidth: 0 }} />
        <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
          {formatSize(attachment.sizeInBytes)}
        </Text>
      </Group>
      <AttachmentViewer
        messageId={messageId}
        attachment={attachment}
        mode={editable ? 'edit' : 'view'}
        onChanged={refresh}
        onPollStatus={refresh}
        confirmSaves
        frameMaxHeight={sticky ? FRAME_MAX_HEIGHT : '80vh'}
      />
    </Box>
  );
}
