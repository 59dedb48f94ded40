import { Fieldset, Select, SimpleGrid, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { birthDateTexts } from './compose-validation.ts';
import { composeLimits, type ComposeValues } from './release-compose-form.ts';
import { TypedDateInput } from '../../components/typed-date-input.tsx';

type TextField = Exclude<keyof ComposeValues['patient'], 'birthDate' | 'gender'>;

const genders = [
  { value: 'M', label: 'Male' },
  { value: 'F', label: 'Female' },
  { value: 'UN', label: 'Unknown' },
];

/** The patient the message is about; name, birth date and gender are required to send a new message or a forward. */
export function ComposePatientSection({ form, required }: { form: UseFormReturnType<ComposeValues>; required: boolean }) {
  const input = (field: TextField, label: string, maxLength: number, isRequired = false) => (
    <TextInput label={label} maxLength={maxLength} withAsterisk={isRequired} {...form.getInputProps(`patient.${field}`)} />
  );
  const birthDate = form.getInputProps('patient.birthDate');

  return (
    <Fieldset legend="Patient">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {input('firstName', 'First name', composeLimits.patientName, required)}
        {input('middleName', 'Middle name', composeLimits.patientName)}
        {input('lastName', 'Last name', composeLimits.patientName, required)}
        <TypedDateInput
          label="Birth date"
          withAsterisk={required}
          value={form.values.patient.birthDate}
          onChange={(value) => form.setFieldValue('patient.birthDate', value)}
          error={birthDate.error as string | undefined}
          onFocus={birthDate.onFocus as () => void}
          texts={birthDateTexts}
          onChecked={(error) => form.setFieldError('patient.birthDate', error)}
        />
        <Select label="Gender" data={genders} withAsterisk={required} allowDeselect={false} {...form.getInputProps('patient.gender')} />
        {input('telephone', 'Phone', composeLimits.telephone)}
        {input('streetAddress1', 'Street address', composeLimits.streetAddress1)}
        {input('streetAddress2', 'Street address 2', composeLimits.streetAddress2)}
        {input('city', 'City', composeLimits.city)}
        {input('state', 'State', composeLimits.state)}
        {input('postalCode', 'Postal code', composeLimits.postalCode)}
      </SimpleGrid>
    </Fieldset>
  );
}
