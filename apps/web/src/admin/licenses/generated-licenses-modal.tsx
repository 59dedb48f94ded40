import { Alert, Button, CopyButton, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { licenseMessages as text, type IssuedLicense } from '@clinicrelay/contracts/licenses.ts';
import { formatDate } from '../../components/format.ts';

// 'Copied!' shows for 2.5 s (back-office-b §9).
const COPIED_MS = 2_500;

/** The generated-list modal: the new keys in full, the only time they are shown (only their hash is kept). */
export function GeneratedLicensesModal({ licenses, onClose }: { licenses: IssuedLicense[] | null; onClose: () => void }) {
  const all = (licenses ?? []).map((l) => l.licenseKey).join('\n');
  return (
    <Modal opened={licenses !== null} onClose={onClose} title="Generated license keys" size="xl">
      {licenses && (
        <Stack>
          <Text>{text.generated(licenses.length)}</Text>
          <Alert color="yellow">{text.keysShownOnce}</Alert>
          <Table.ScrollContainer minWidth={500} mah={420}>
            <Table striped aria-label="Generated license keys">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>License key</Table.Th>
                  <Table.Th>License type</Table.Th>
                  <Table.Th>Organization</Table.Th>
                  <Table.Th>Expiration date</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {licenses.map((l) => (
                  <Table.Tr key={l.id}>
                    <Table.Td style={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{l.licenseKey}</Table.Td>
                    <Table.Td>{l.licenseType}</Table.Td>
                    <Table.Td>{l.organization}</Table.Td>
                    <Table.Td>{formatDate(l.expirationDate)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="flex-end">
            <CopyButton value={all} timeout={COPIED_MS}>
              {({ copied, copy }) => (
                <Button variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
                  {copied ? text.copied : 'Copy keys'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
