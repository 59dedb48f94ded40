import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { Button, Fieldset, Group, Overlay, Stack, Text, Title } from '@mantine/core';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import { AttachmentList } from './attachment-list.tsx';
import { AttachmentUploadModal } from './attachment-upload-modal.tsx';

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * Files dragged anywhere over the page while it is shown: `dragging` while they hover, `onDrop` with them
 * once dropped. Other drags (text, links) are left to the browser.
 */
function usePageFileDrop(onDrop: (files: File[]) => void) {
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  const dropFiles = useEffectEvent(onDrop);

  useEffect(() => {
    const enter = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      depth.current += 1;
      setDragging(true);
    };
    const leave = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    };
    // Without preventDefault on dragover the browser would open the file instead of handing it over.
    const over = (event: DragEvent) => {
      if (hasFiles(event)) event.preventDefault();
    };
    const drop = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth.current = 0;
      setDragging(false);
      const files = Array.from(event.dataTransfer?.files ?? []);
      if (files.length > 0) dropFiles(files);
    };
    document.addEventListener('dragenter', enter);
    document.addEventListener('dragleave', leave);
    document.addEventListener('dragover', over);
    document.addEventListener('drop', drop);
    return () => {
      document.removeEventListener('dragenter', enter);
      document.removeEventListener('dragleave', leave);
      document.removeEventListener('dragover', over);
      document.removeEventListener('drop', drop);
    };
  }, []);
  return dragging;
}

export interface ComposeAttachmentsSectionProps {
  draftId: string | null;
  attachments: Message['attachments'];
  /** A forward's attachments from the original, copied onto the draft when it is first saved. */
  carried: Pick<Message['attachments'][number], 'id' | 'fileName'>[];
  ensureDraft: () => Promise<string>;
  /** After the upload modal closes: the first attachment may have created the draft. */
  onUploadsDone: () => void;
}

/** The message's attachments, 'Attach a new file', and files dropped on the page (several at once). */
export function ComposeAttachmentsSection({ draftId, attachments, carried, ensureDraft, onUploadsDone }: ComposeAttachmentsSectionProps) {
  const [uploadOpen, setUploadOpen] = useState(false);
  const [dropped, setDropped] = useState<{ files: File[]; at: number } | null>(null);
  const dragging = usePageFileDrop((files) => {
    setDropped({ files, at: Date.now() });
    setUploadOpen(true);
  });

  return (
    <Fieldset legend="Attachments">
      <Stack>
        {draftId !== null ? (
          <AttachmentList messageId={draftId} attachments={attachments} mode="edit" />
        ) : carried.length > 0 ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            Forwarded with the original: {carried.map((a) => a.fileName).join(', ')}
          </Text>
        ) : (
          <Text c="dimmed">No attachments added</Text>
        )}
        <Group>
          <Button variant="light" onClick={() => setUploadOpen(true)}>
            Attach a new file
          </Button>
          <Text size="xs" c="dimmed">
            or drop files anywhere on this page
          </Text>
        </Group>
      </Stack>
      {dragging && (
        <Overlay fixed center backgroundOpacity={0.55} color="#000" zIndex={300}>
          <Title order={2} c="white" size="h3">
            Drop files to attach them
          </Title>
        </Overlay>
      )}
      <AttachmentUploadModal
        opened={uploadOpen}
        dropped={dropped}
        onClose={() => {
          setUploadOpen(false);
          setDropped(null);
          // After the upload, not during it: moving to the draft's URL remounts the form.
          onUploadsDone();
        }}
        ensureDraft={ensureDraft}
      />
    </Fieldset>
  );
}
