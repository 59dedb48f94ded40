import { Alert, Button, CopyButton, Group, List, Paper, Stack, Text } from '@mantine/core';

const FILE_NAME = 'clinicrelay-recovery-codes.txt';

/** The ten recovery codes of a new enrolment, shown this once, with copy and download (issue 14 §6). */
export function RecoveryCodes({ codes, userName, onDone }: { codes: string[]; userName: string; onDone: () => void }) {
  const asText = [`ClinicRelay recovery codes for ${userName}`, 'Each code signs you in once in place of a verification code.', '', ...codes, ''].join('\n');
  const download = () => {
    const url = URL.createObjectURL(new Blob([asText], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = FILE_NAME;
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Stack gap="sm" aria-label="Recovery codes" component="section">
      <Alert color="yellow" title="Save your recovery codes">
        These codes are shown only now. Each one signs you in once if you lose your phone or cannot get a code. Keep them somewhere safe.
      </Alert>
      <Paper withBorder p="md">
        <List listStyleType="none" spacing={4} ff="monospace" style={{ columns: 2 }} aria-label="Recovery code list">
          {codes.map((code) => (
            <List.Item key={code}>{code}</List.Item>
          ))}
        </List>
      </Paper>
      <Group justify="space-between">
        <Group gap="xs">
          <CopyButton value={asText}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy codes'}
              </Button>
            )}
          </CopyButton>
          <Button variant="default" onClick={download}>
            Download codes
          </Button>
        </Group>
        <Button onClick={onDone}>I saved my codes</Button>
      </Group>
      <Text size="xs" c="dimmed">
        You can type a recovery code with or without its dash.
      </Text>
    </Stack>
  );
}
