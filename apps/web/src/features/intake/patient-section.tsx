import { Badge, Button, Card, Group, Select, SimpleGrid, Text, TextInput, Title } from '@mantine/core';
import type { ExtractedField, PatientDraft } from './patient-extraction.ts';

export interface PatientSectionProps {
  value: PatientDraft;
  onChange: (next: PatientDraft) => void;
  /** Fields the last extraction filled; each shows an "extracted" badge. */
  extracted: ReadonlySet<ExtractedField>;
  onSave: () => void;
  saving: boolean;
  dirty: boolean;
  /** Print export mode: every field is read-only. */
  disabled?: boolean;
  /** Visit fields are editable only for a patient-folder export with a visit directory (end-user §4). */
  visitDisabled?: boolean;
}

const genders = [
  { value: 'M', label: 'Male' },
  { value: 'F', label: 'Female' },
  { value: 'UN', label: 'Unknown' },
];

const ExtractedBadge = () => (
  <Badge size="xs" variant="light" color="grape">
    extracted
  </Badge>
);

/** The patient the message is about (end-user §2 "Patient section"); birth date and gender are optional in Intake. */
export function PatientSection({ value, onChange, extracted, onSave, saving, dirty, disabled = false, visitDisabled = false }: PatientSectionProps) {
  const text = (field: keyof PatientDraft, label: string, maxLength = 35, fieldDisabled = disabled) => (
    <TextInput
      label={label}
      value={value[field]}
      maxLength={maxLength}
      disabled={fieldDisabled}
      rightSection={extracted.has(field as ExtractedField) ? <ExtractedBadge /> : undefined}
      rightSectionWidth={72}
      onChange={(event) => onChange({ ...value, [field]: event.currentTarget.value })}
    />
  );
  return (
    <Card withBorder component="section" aria-label="Patient">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          Patient
        </Title>
        <Button size="xs" onClick={onSave} loading={saving} disabled={disabled || !dirty}>
          Save patient
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {text('firstName', 'First name')}
        {text('middleName', 'Middle name')}
        {text('lastName', 'Last name')}
        <TextInput
          label="Birth date"
          placeholder="MM/DD/YYYY"
          value={value.birthDate}
          maxLength={10}
          disabled={disabled}
          rightSection={extracted.has('birthDate') ? <ExtractedBadge /> : undefined}
          rightSectionWidth={72}
          onChange={(event) => onChange({ ...value, birthDate: event.currentTarget.value })}
        />
        <Select
          label="Gender"
          data={genders}
          value={value.gender || null}
          disabled={disabled}
          clearable
          rightSection={extracted.has('gender') ? <ExtractedBadge /> : undefined}
          rightSectionWidth={extracted.has('gender') ? 72 : undefined}
          onChange={(gender) => onChange({ ...value, gender: gender ?? '' })}
        />
        {text('telephone', 'Telephone', 20)}
        {text('streetAddress1', 'Street address')}
        {text('city', 'City')}
        {text('state', 'State')}
        {text('postalCode', 'Postal code', 10)}
        {text('visitId', 'Visit ID', 64, disabled || visitDisabled)}
        <TextInput
          label="Visit date"
          placeholder="MM/DD/YYYY"
          value={value.visitDate}
          maxLength={10}
          disabled={disabled || visitDisabled}
          onChange={(event) => onChange({ ...value, visitDate: event.currentTarget.value })}
        />
      </SimpleGrid>
      {visitDisabled && !disabled && (
        <Text size="xs" c="dimmed" mt="xs">
          Visit fields are used only when your organization exports into a folder per patient and visit.
        </Text>
      )}
    </Card>
  );
}
