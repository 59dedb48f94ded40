import { Alert, Badge, Button, Card, Group, Select, SimpleGrid, Text, TextInput, Title } from '@mantine/core';
import type { ExtractedField } from './patient-extraction.ts';
import type { PatientField } from './patient-draft.ts';
import { patientFieldId, type PatientForm } from './use-patient-form.ts';

export interface PatientSectionProps {
  form: PatientForm;
  /** Print export mode: every field is read-only. */
  disabled?: boolean;
  /** Visit fields are editable only for a patient-folder export with a visit directory (end-user §4). */
  visitDisabled?: boolean;
  /** First and last name are required (Intake with patient export). */
  namesRequired?: boolean;
}

const genders = [
  { value: 'M', label: 'Male' },
  { value: 'F', label: 'Female' },
  { value: 'UN', label: 'Unknown' },
];

const ExtractedBadge = () => (
  <Badge size="xs" variant="light" color="grape" tt="none">
    extracted
  </Badge>
);

const saveStateText = { clean: null, unsaved: 'Unsaved changes', saved: 'All changes saved' } as const;

/** The patient the message is about (end-user §2 "Patient section"); birth date and gender are optional in Intake. */
export function PatientSection({ form, disabled = false, visitDisabled = false, namesRequired = false }: PatientSectionProps) {
  const { value, errors, extracted } = form;
  const marked = (field: PatientField) => extracted.has(field as ExtractedField);
  const text = (field: PatientField, label: string, options: { maxLength?: number; disabled?: boolean; required?: boolean } = {}) => (
    <TextInput
      id={patientFieldId(field)}
      label={label}
      value={value[field]}
      maxLength={options.maxLength ?? 35}
      disabled={options.disabled ?? disabled}
      required={options.required}
      error={errors[field]}
      rightSection={marked(field) ? <ExtractedBadge /> : undefined}
      rightSectionWidth={marked(field) ? 76 : undefined}
      onChange={(event) => form.change(field, event.currentTarget.value)}
    />
  );
  const date = (field: 'birthDate' | 'visitDate', label: string, fieldDisabled: boolean) => (
    <TextInput
      id={patientFieldId(field)}
      label={label}
      placeholder="MM/DD/YYYY"
      value={value[field]}
      maxLength={10}
      disabled={fieldDisabled}
      error={errors[field]}
      rightSection={marked(field) ? <ExtractedBadge /> : undefined}
      rightSectionWidth={marked(field) ? 76 : undefined}
      onChange={(event) => form.change(field, event.currentTarget.value)}
      onBlur={() => form.checkDate(field)}
    />
  );
  const status = saveStateText[form.state];
  return (
    <Card withBorder component="section" aria-label="Patient">
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Title order={2} size="h4">
          Patient
        </Title>
        <Group gap="xs" wrap="nowrap">
          {status && (
            <Text size="xs" c={form.state === 'saved' ? 'teal.9' : 'orange.9'} role="status">
              {status}
            </Text>
          )}
          <Button size="xs" onClick={() => void form.save()} loading={form.saving} disabled={disabled || form.state !== 'unsaved'}>
            Save patient
          </Button>
        </Group>
      </Group>
      {form.formError && (
        <Alert color="red" mb="xs" role="alert" style={{ overflowWrap: 'anywhere' }}>
          {form.formError}
        </Alert>
      )}
      {/* Container columns: the section is narrow beside the document and wide when stacked. */}
      <SimpleGrid type="container" cols={{ base: 1, '320px': 2, '640px': 3 }} spacing="sm" verticalSpacing="xs">
        {text('firstName', 'First name', { required: namesRequired })}
        {text('middleName', 'Middle name')}
        {text('lastName', 'Last name', { required: namesRequired })}
        {date('birthDate', 'Birth date', disabled)}
        <Select
          id={patientFieldId('gender')}
          label="Gender"
          data={genders}
          value={value.gender || null}
          disabled={disabled}
          allowDeselect={false}
          clearable
          error={errors.gender}
          rightSection={marked('gender') ? <ExtractedBadge /> : undefined}
          rightSectionWidth={marked('gender') ? 76 : undefined}
          onChange={(gender) => form.change('gender', gender ?? '')}
        />
        {text('telephone', 'Telephone', { maxLength: 20 })}
        {text('streetAddress1', 'Street address')}
        {text('city', 'City')}
        {text('state', 'State')}
        {text('postalCode', 'Postal code', { maxLength: 10 })}
        {text('visitId', 'Visit ID', { maxLength: 64, disabled: disabled || visitDisabled })}
        {date('visitDate', 'Visit date', disabled || visitDisabled)}
      </SimpleGrid>
      {visitDisabled && !disabled && (
        <Text size="xs" c="dimmed" mt="xs">
          Visit fields are used only when your organization exports into a folder per patient and visit.
        </Text>
      )}
    </Card>
  );
}
