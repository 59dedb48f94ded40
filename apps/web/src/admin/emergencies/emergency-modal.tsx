import { useEffect } from 'react';
import { ActionIcon, Alert, Center, Group, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { EMERGENCY_NAME_MAX, emergencyInput, emergencyMessages as text, parseDisabledDate, utcToday, type Emergency } from '@clinicrelay/contracts/emergencies.ts';
import { createEmergency, emergencyKeys, fetchEmergency, updateEmergency } from '../../api/emergencies.ts';
import { EntityModal } from '../../components/entity-modal.tsx';
import { notifyError } from '../../components/notify.ts';
import { OrganizationSearch } from './organization-search.tsx';

type Values = z.output<typeof emergencyInput>;

const blank: Values = { name: '', disabledDate: '', organizations: [] };

// The form shows a stored date as MM/dd/yyyy (M/d/yyyy of §5 with the zeros), which it sends back as typed.
const typedDate = (iso: string | null) => (iso ? `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}` : '');
const valuesOf = (row: Emergency): Values => ({ name: row.name, disabledDate: typedDate(row.disabledDate), organizations: row.organizations });

interface EmergencyModalProps {
  /** null: closed; { id: null }: a new emergency; { id }: that emergency, read again when the modal opens. */
  editing: { id: string | null } | null;
  onClose: () => void;
}

/** back-office-b §2 "Emergency edit": name, disabled date (§5 formats) and the organizations, chosen through the search. */
export function EmergencyModal({ editing, onClose }: EmergencyModalProps) {
  const queryClient = useQueryClient();
  const id = editing?.id ?? null;
  const stored = useQuery({ queryKey: [...emergencyKeys, 'one', id], queryFn: ({ signal }) => fetchEmergency(id!, signal), enabled: id !== null, gcTime: 0, retry: false });
  useEffect(() => {
    if (stored.isError) {
      notifyError(text.retrieveFailed);
      onClose();
    }
  }, [stored.isError, onClose]);

  if (id !== null && !stored.data) {
    return (
      <Modal opened={editing !== null && !stored.isError} onClose={onClose} title="Edit emergency">
        <Center py="lg">
          <Loader aria-label="Loading" />
        </Center>
      </Modal>
    );
  }
  return (
    <EntityModal<Values>
      opened={editing !== null}
      onClose={onClose}
      entityName="emergency"
      size="lg"
      entity={stored.data && id !== null ? { ...valuesOf(stored.data), id } : blank}
      schema={emergencyInput}
      successMessage={text.saved}
      onSubmit={async (values) => {
        await (id ? updateEmergency({ ...values, id }) : createEmergency(values));
        await queryClient.invalidateQueries({ queryKey: emergencyKeys });
      }}
    >
      {(form) => <EmergencyFields form={form} />}
    </EntityModal>
  );
}

function EmergencyFields({ form }: { form: UseFormReturnType<Values> }) {
  const invalid = Object.keys(form.errors).length > 0;
  const iso = parseDisabledDate(form.values.disabledDate ?? '');
  const pending = !!iso && iso > utcToday();
  const chosen = form.values.organizations;
  return (
    <Stack>
      {invalid && <Alert color="red">{text.invalidFields}</Alert>}
      <TextInput label="Name" required maxLength={EMERGENCY_NAME_MAX} data-autofocus {...form.getInputProps('name')} />
      <TextInput
        label="Disabled date"
        description="M/d/yyyy, M/d/yy, MMddyyyy or MMddyy; empty while the emergency runs"
        placeholder="MM/DD/YYYY"
        inputMode="numeric"
        autoComplete="off"
        maxLength={10}
        {...form.getInputProps('disabledDate')}
        onBlur={() => {
          // A date in one of the formats is rewritten MM/dd/yyyy, so what was understood is what shows. Checked on Save
          // only: a message appearing on blur would move the Save button from under a click that caused the blur.
          if (iso) form.setFieldValue('disabledDate', typedDate(iso));
        }}
      />
      {pending && (
        <Alert color="yellow" title="Pending disable">
          {text.pendingDisable}
        </Alert>
      )}
      <OrganizationSearch
        label="Organizations"
        exclude={chosen.map((o) => o.oid)}
        onPick={(organization) => form.insertListItem('organizations', organization)}
        error={form.errors.organizations}
      />
      {chosen.length === 0 ? (
        <Text size="sm" c="dimmed">
          No organizations chosen.
        </Text>
      ) : (
        <Stack gap={4} component="ul" style={{ listStyle: 'none', paddingLeft: 0, margin: 0 }} aria-label="Chosen organizations">
          {chosen.map((organization, index) => (
            <Group key={organization.oid} component="li" justify="space-between" wrap="nowrap" gap="xs">
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {organization.name}{' '}
                <Text span size="xs" c="dimmed">
                  {organization.oid}
                </Text>
              </Text>
              <ActionIcon variant="subtle" color="red" aria-label={`Remove ${organization.name}`} onClick={() => form.removeListItem('organizations', index)}>
                <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
                  <path d="M18 6 6 18M6 6l12 12" />
                </svg>
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
