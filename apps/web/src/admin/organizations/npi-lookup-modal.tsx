import { useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { NPI_LOOKUP_DEBOUNCE_MS, NPI_LOOKUP_LENGTH, organizationMessages as text } from '@clinicrelay/contracts/organizations.ts';
import { lookUpNpi, organizationKeys } from '../../api/organizations.ts';
import { errorDetails } from '../../components/error-details.ts';
import { notifySuccess } from '../../components/notify.ts';

interface NpiLookupModalProps {
  opened: boolean;
  initial: string;
  onClose: () => void;
  /** The number of the result, to put in the form (saved with Save Changes). */
  onUpdate: (npi: string) => void;
}

// back-office-a §2 "NPI search modal": 10 characters, 500 ms debounce, Update NPI only with a result.
export function NpiLookupModal(props: NpiLookupModalProps) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="NPI Search" size="lg">
      {/* Mounted per opening, so each starts from the form's NPI. */}
      {props.opened && <NpiLookup {...props} />}
    </Modal>
  );
}

function NpiLookup({ opened, initial, onClose, onUpdate }: NpiLookupModalProps) {
  const [npi, setNpi] = useState(/^\d{10}$/.test(initial) ? initial : '');
  const [debounced] = useDebouncedValue(npi.trim(), NPI_LOOKUP_DEBOUNCE_MS);
  const ready = /^\d{10}$/.test(debounced);
  const lookup = useQuery({
    queryKey: [...organizationKeys.all, 'npi', debounced],
    queryFn: ({ signal }) => lookUpNpi(debounced, signal),
    enabled: opened && ready,
  });
  const result = ready ? lookup.data : undefined;
  const official = result ? [result.basic.authorizedOfficialFirstName, result.basic.authorizedOfficialMiddleName, result.basic.authorizedOfficialLastName].filter(Boolean).join(' ') || result.fullName : null;

  return (
    <Stack>
      <TextInput label="NPI Number" maxLength={NPI_LOOKUP_LENGTH} inputMode="numeric" value={npi} onChange={(e) => setNpi(e.currentTarget.value.replace(/\D/g, ''))} data-autofocus />
      {ready && lookup.isFetching && <Loader size="sm" aria-label="Looking the NPI up" />}
      {ready && lookup.error && <Alert color="red">{errorDetails(lookup.error).message}</Alert>}
      {ready && lookup.isSuccess && result === null && <Text c="dimmed">{text.npiNoResults}</Text>}
      {result && (
        <>
          {result.number !== debounced && <Alert color="yellow">{text.npiMismatch(debounced, result.number)}</Alert>}
          <Table variant="vertical" withTableBorder>
            <Table.Tbody>
              <Row label="Number" value={result.number} />
              <Row label="Name" value={result.name} />
              <Row label="Organization Name" value={result.organizationName} />
              <Row label="Organizational Subpart" value={result.organizationalSubpart} />
              <Row label="Authorized Official" value={official} />
              <Row label="Authorized Official Telephone" value={result.authorizedOfficialTelephoneNumber} />
              <Row label="Status" value={result.status === 'A' ? 'Active' : result.status} />
            </Table.Tbody>
          </Table>
          <Text fw={500}>Addresses</Text>
          {result.addresses.length === 0 ? (
            <Text c="dimmed">{text.npiNoAddresses}</Text>
          ) : (
            result.addresses.map((a, i) => (
              <Text key={i} size="sm">
                {[a.address_1, a.address_2, a.city, a.state, a.postalCode].filter(Boolean).join(', ')}
              </Text>
            ))
          )}
        </>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button
          disabled={!result}
          onClick={() => {
            if (!result) return;
            onUpdate(result.number);
            notifySuccess(text.npiApply);
          }}
        >
          Update NPI
        </Button>
      </Group>
    </Stack>
  );
}

function Row({ label, value }: { label: string; value: string | null }) {
  return (
    <Table.Tr>
      <Table.Th w={220}>{label}</Table.Th>
      <Table.Td>{value ?? ''}</Table.Td>
    </Table.Tr>
  );
}
