import { Alert, Button, Checkbox, Fieldset, Grid, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useForm, type FormErrors, type UseFormReturnType } from '@mantine/form';
import { parseTypedDate } from '@clinicrelay/contracts/dates.ts';
import { directoryStates } from '@clinicrelay/contracts/directory.ts';
import { identityMessages, identityRequest, type IdentityProofingResult, type IdentityRequest } from '@clinicrelay/contracts/identity-proofing.ts';
import { useCurrentUser } from '../../api/two-factor.ts';
import { errorDetails } from '../../components/error-details.ts';
import { TypedDateInput } from '../../components/typed-date-input.tsx';
import { useSubmitIdentity } from './api.ts';
import { OnboardingModal, SandboxNote } from './onboarding-modal.tsx';
import { onboardingTexts as texts } from './onboarding-texts.ts';

interface AddressValues {
  addressLine: string;
  addressUnit: string;
  city: string;
  state: string;
  zip: string;
}
export interface IdentityFormValues {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  ssn: string;
  phoneNumber: string;
  currentAddress: AddressValues;
  hasFormerAddress: boolean;
  formerAddress: AddressValues;
}

const emptyAddress = (): AddressValues => ({ addressLine: '', addressUnit: '', city: '', state: '', zip: '' });
const STATE_OPTIONS = directoryStates.map(([value, label]) => ({ value, label: `${value} - ${label}` }));

// The masks of screens-catalog "Submit identity": SSN ddd-dd-dddd, telephone (ddd) ddd-dddd, filled as one types.
export function formatSsn(value: string): string {
  const d = value.replace(/\D/g, '').slice(0, 9);
  if (d.length <= 3) return d;
  if (d.length <= 5) return `${d.slice(0, 3)}-${d.slice(3)}`;
  return `${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5)}`;
}
export function formatPhone(value: string): string {
  const d = value.replace(/\D/g, '').slice(0, 10);
  if (d.length === 0) return '';
  if (d.length <= 3) return `(${d}`;
  if (d.length <= 6) return `(${d.slice(0, 3)}) ${d.slice(3)}`;
  return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
}

// The birth date is typed as every date of the app (MM/DD/YYYY and the other end-user §5 formats); one that is no
// date (02/30/1990) goes as typed, so the schema answers that it is not valid rather than that it is missing.
export const toIdentityRequest = (values: IdentityFormValues): IdentityRequest => ({
  firstName: values.firstName,
  lastName: values.lastName,
  dateOfBirth: parseTypedDate(values.dateOfBirth) ?? values.dateOfBirth,
  ssn: values.ssn || null,
  phoneNumber: values.phoneNumber || null,
  currentAddress: values.currentAddress,
  formerAddress: values.hasFormerAddress ? values.formerAddress : null,
});

// The same schema as the server (contracts), so the same message shows at the same field.
function validate(values: IdentityFormValues): FormErrors {
  const parsed = identityRequest.safeParse(toIdentityRequest(values));
  const errors: FormErrors = {};
  if (!parsed.success) for (const issue of parsed.error.issues) errors[issue.path.join('.')] ??= issue.message;
  return errors;
}

const AddressLegend = ({ text }: { text: string }) => (
  <Text fw={600} size="sm" mb={4}>
    {text}
  </Text>
);

function AddressFields({ form, prefix }: { form: UseFormReturnType<IdentityFormValues, IdentityFormValues, typeof validate>; prefix: 'currentAddress' | 'formerAddress' }) {
  return (
    <Grid gap="sm">
      <Grid.Col span={{ base: 12, sm: 9 }}>
        <TextInput label="Address" required maxLength={255} autoComplete="street-address" {...form.getInputProps(`${prefix}.addressLine`)} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 3 }}>
        <TextInput label="Unit" maxLength={255} {...form.getInputProps(`${prefix}.addressUnit`)} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 5 }}>
        <TextInput label="City" required maxLength={255} {...form.getInputProps(`${prefix}.city`)} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 4 }}>
        <Select label="State" required searchable data={STATE_OPTIONS} comboboxProps={{ withinPortal: true }} {...form.getInputProps(`${prefix}.state`)} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 3 }}>
        <TextInput label="Zip" required maxLength={10} autoComplete="postal-code" {...form.getInputProps(`${prefix}.zip`)} />
      </Grid.Col>
    </Grid>
  );
}

// The signed-in administrator is usually the person proofed: their names fill the empty name fields once loaded.
function useNamePrefill(form: UseFormReturnType<IdentityFormValues, IdentityFormValues, typeof validate>) {
  const user = useCurrentUser();
  const prefilled = useRef(false);
  useEffect(() => {
    if (!user.data || prefilled.current) return;
    prefilled.current = true;
    const current = form.getValues();
    form.setValues({ firstName: current.firstName || user.data.firstName, lastName: current.lastName || user.data.lastName });
  }, [user.data, form]);
}

/** Submit identity (end-user §5 "Identity form"): the identity goes to the provider, which answers a quiz or a decision. */
export function IdentityDialog({ provider, onResult, onClose }: { provider: string | undefined; onResult: (result: IdentityProofingResult) => void; onClose: () => void }) {
  const submitIdentity = useSubmitIdentity();
  const form = useForm<IdentityFormValues>({
    initialValues: { firstName: '', lastName: '', dateOfBirth: '', ssn: '', phoneNumber: '', currentAddress: emptyAddress(), hasFormerAddress: false, formerAddress: emptyAddress() },
    validate,
  });
  useNamePrefill(form);

  const submit = form.onSubmit((values) =>
    submitIdentity.mutate(toIdentityRequest(values), {
      onSuccess: onResult,
      onError: (error) => {
        const { modelState } = errorDetails(error);
        form.setErrors(Object.fromEntries(Object.entries(modelState).map(([field, messages]) => [field, messages[0]])));
      },
    }),
  );
  const formError = submitIdentity.isError && Object.keys(errorDetails(submitIdentity.error).modelState).length === 0 ? errorDetails(submitIdentity.error).message : null;

  return (
    <OnboardingModal title={texts.identityTitle} onClose={onClose} size="xl">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <SandboxNote provider={provider} />
          <Grid gap="sm">
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="First Name" required maxLength={255} autoComplete="given-name" data-autofocus {...form.getInputProps('firstName')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="Last Name" required maxLength={255} autoComplete="family-name" {...form.getInputProps('lastName')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 4 }}>
              <TypedDateInput
                label="Date of Birth"
                required
                autoComplete="bday"
                {...form.getInputProps('dateOfBirth')}
                value={form.values.dateOfBirth}
                onChange={(value) => form.setFieldValue('dateOfBirth', value)}
                texts={{ invalid: identityMessages.dateOfBirthInvalid, future: identityMessages.dateOfBirthInvalid }}
                onChecked={(error) => form.setFieldError('dateOfBirth', error)}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 4 }}>
              <TextInput
                label="SSN"
                placeholder="xxx-xx-xxxx"
                inputMode="numeric"
                autoComplete="off"
                {...form.getInputProps('ssn')}
                onChange={(event) => form.setFieldValue('ssn', formatSsn(event.currentTarget.value))}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 4 }}>
              <TextInput
                label="Phone Number"
                placeholder="(xxx) xxx-xxxx"
                inputMode="tel"
                autoComplete="tel-national"
                {...form.getInputProps('phoneNumber')}
                onChange={(event) => form.setFieldValue('phoneNumber', formatPhone(event.currentTarget.value))}
              />
            </Grid.Col>
          </Grid>
          <Fieldset legend={<AddressLegend text={texts.currentAddress} />} variant="unstyled" p={0} m={0}>
            <AddressFields form={form} prefix="currentAddress" />
          </Fieldset>
          <Checkbox label={texts.hasFormerAddress} {...form.getInputProps('hasFormerAddress', { type: 'checkbox' })} />
          {form.values.hasFormerAddress && (
            <Fieldset legend={<AddressLegend text={texts.formerAddress} />} variant="unstyled" p={0} m={0}>
              <AddressFields form={form} prefix="formerAddress" />
            </Fieldset>
          )}
          {formError && <Alert color="red">{formError}</Alert>}
          <Group justify="flex-end">
            <Button type="submit" loading={submitIdentity.isPending}>
              {texts.submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </OnboardingModal>
  );
}
