import { useEffect, useRef } from 'react';
import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { registrationMessages, registrationRequest, type RegistrationInvitation } from '@clinicrelay/contracts/registration.ts';
import { errorDetails } from '../../components/error-details.ts';
import { NewPasswordFields } from '../../components/password-field.tsx';
import { useRegister } from './api.ts';

export interface RegistrationValues {
  organizationName: string;
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
}

const schemaErrors = schemaResolver(registrationRequest, { sync: true });
// The schema's password match runs only once every field is right; the form says it at once.
function validateRegistration(values: RegistrationValues) {
  const errors = schemaErrors(values);
  if (values.confirmPassword !== '' && values.password !== values.confirmPassword) errors.confirmPassword ??= registrationMessages.passwordsDoNotMatch;
  return errors;
}

const BLANK: RegistrationValues = { organizationName: '', firstName: '', lastName: '', email: '', password: '', confirmPassword: '' };

interface RegistrationFormProps {
  /** The reseller link's code, sent with the registration (the organization is then the reseller's). */
  urlCode: string | null;
  /** The invitation mail's code and what it prefills. */
  invitation: { code: string; prefill: RegistrationInvitation | undefined } | null;
  onRegistered: (email: string) => void;
}

/** Organization name, the first administrator's name, email (the user name) and password. */
export function RegistrationForm({ urlCode, invitation, onRegistered }: RegistrationFormProps) {
  const form = useForm<RegistrationValues>({ initialValues: BLANK, validate: validateRegistration });
  const register = useRegister();

  // Prefilled once, when the invitation arrives; what the visitor typed meanwhile stays.
  const prefilled = useRef(false);
  const prefill = invitation?.prefill;
  useEffect(() => {
    if (!prefill || prefilled.current) return;
    prefilled.current = true;
    const current = form.getValues();
    form.setValues({
      firstName: current.firstName || prefill.firstName,
      lastName: current.lastName || prefill.lastName,
      email: current.email || prefill.email,
    });
  }, [prefill, form]);

  const submit = form.onSubmit((values) => {
    register.mutate(
      { ...values, urlCode, invitation: invitation?.code ?? null },
      {
        onSuccess: () => onRegistered(values.email.trim().toLowerCase()),
        onError: (error) => form.setErrors(Object.fromEntries(Object.entries(errorDetails(error).modelState).map(([field, texts]) => [field, texts[0]]))),
      },
    );
  });
  const failure = register.isError ? errorDetails(register.error) : null;
  // A field's message shows at the field; only a message of no field of the form goes on top.
  const topMessage = failure && !Object.keys(failure.modelState).some((f) => f in BLANK) ? failure.message : null;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {topMessage && (
          <Alert color="red" variant="light">
            {topMessage}
          </Alert>
        )}
        <TextInput label="Organization name" required autoComplete="organization" maxLength={200} {...form.getInputProps('organizationName')} />
        <Group grow align="flex-start" gap="sm">
          <TextInput label="First name" required autoComplete="given-name" maxLength={100} {...form.getInputProps('firstName')} />
          <TextInput label="Last name" required autoComplete="family-name" maxLength={100} {...form.getInputProps('lastName')} />
        </Group>
        {/* The email is the user name; not checked with the server while typing, which would tell anyone whether an account exists (issue 26). */}
        <TextInput
          label="Email (your username)"
          required
          inputMode="email"
          autoComplete="email"
          maxLength={256}
          description="Your user name: we send a link there to confirm it."
          {...form.getInputProps('email')}
        />
        {/* The strength meter and password policy of issue 14 §5 (components/password-field.tsx). */}
        <NewPasswordFields form={form} paths={['password', 'confirmPassword']} hint="Use 8 to 128 characters." userName={form.values.email} />
        <Button type="submit" mt="xs" loading={register.isPending}>
          Register
        </Button>
      </Stack>
    </form>
  );
}
