import { Alert, Button, Code, CopyButton, Group, Loader, Modal, ScrollArea, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { COPIED_RESET_MS, directoryDownloadMessages as text } from '@clinicrelay/contracts/directory-downloads.ts';
import { directoryDownloadKeys, fetchDirectoryDownloadLog } from '../../api/directory-downloads.ts';
import { errorDetails } from '../../components/error-details.ts';

/** back-office-b §2: a download's log message, with a copy button that shows 'Copied!' for 2.5 s. */
export function LogMessageModal({ downloadId, onClose }: { downloadId: string | null; onClose: () => void }) {
  const log = useQuery({
    queryKey: directoryDownloadKeys.logMessage(downloadId ?? ''),
    queryFn: ({ signal }) => fetchDirectoryDownloadLog(downloadId!, signal),
    enabled: downloadId !== null,
  });
  return (
    <Modal opened={downloadId !== null} onClose={onClose} title="Log message" size="lg">
      <Stack>
        {log.isLoading && <Loader size="sm" aria-label="Loading the log message" />}
        {log.error ? <Alert color="red">{errorDetails(log.error).message}</Alert> : null}
        {log.data && (
          <ScrollArea.Autosize mah={360}>
            <Code block style={{ whiteSpace: 'pre-wrap' }}>
              {log.data.logMessage}
            </Code>
          </ScrollArea.Autosize>
        )}
        <Group justify="flex-end">
          <CopyButton value={log.data?.logMessage ?? ''} timeout={COPIED_RESET_MS}>
            {({ copied, copy }) => (
              <Button variant={copied ? 'light' : 'default'} color={copied ? 'teal' : undefined} onClick={copy} disabled={!log.data}>
                {copied ? text.copied : text.copy}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose}>Close</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
