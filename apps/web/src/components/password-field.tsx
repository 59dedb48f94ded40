import { useEffect, useState } from 'react';
import { PasswordInput, Progress, Text, type PasswordInputProps } from '@mantine/core';
import type { LooseKeys, UseFormReturnType } from '@mantine/form';
import { passwordStrengthLabels } from '@clinicrelay/contracts/passwords.ts';
import type { PasswordStrength } from './password-strength.ts';

type Measure = (password: string, userName?: string | null) => PasswordStrength;
let measureLoad: Promise<Measure> | undefined;
// One dynamic import for the whole app: zxcvbn and its dictionaries load the first time a password field shows.
const loadMeasure = () => (measureLoad ??= import('./password-strength.ts').then((m) => m.measurePassword));

const colors = ['red', 'red', 'orange', 'teal', 'green'] as const;
// Mantine's default toggle label contains "password", which makes the field ambiguous for label lookups.
const TOGGLE = { 'aria-label': 'Show or hide characters' };

export interface PasswordFieldProps extends Omit<PasswordInputProps, 'value' | 'onChange' | 'description'> {
  value: string;
  onChange: (event: React.ChangeEvent<HTMLInputElement>) => void;
  /** The account's user name (email): a password containing its local part is refused. */
  userName?: string | null | undefined;
  /** Shown under the empty field, where the meter shows once something is typed. */
  hint?: string | undefined;
}

/** A new-password input with a strength meter and the password policy's message (issue 14 §5). */
export function PasswordField({ userName, value, error, hint, ...props }: PasswordFieldProps) {
  const [measure, setMeasure] = useState<Measure | null>(null);
  useEffect(() => {
    let live = true;
    void loadMeasure().then((m) => live && setMeasure(() => m));
    return () => {
      live = false;
    };
  }, []);

  const strength = measure && value ? measure(value, userName) : null;
  // The meter is the input's description (below it), so Mantine links it with aria-describedby; a live region
  // reads the new strength out as the user types.
  const meter = value ? (
    <>
      <Progress.Root size="sm" mt={2}>
        {/* Mantine's own aria-valuetext would read "40%": the meter says the strength's name instead. */}
        <Progress.Section
          value={strength ? ((strength.score + 1) / 5) * 100 : 0}
          color={strength ? colors[strength.score] : 'gray'}
          withAria={false}
          role="progressbar"
          aria-label="Strength of the password"
          aria-valuemin={0}
          aria-valuemax={4}
          aria-valuenow={strength?.score ?? 0}
          aria-valuetext={strength ? passwordStrengthLabels[strength.score] : 'Checking'}
        />
      </Progress.Root>
      <Text size="xs" mt={4} c={strength?.problem && !error ? 'red.8' : 'dimmed'}>
        {strength ? `Strength: ${passwordStrengthLabels[strength.score]}` : 'Checking strength…'}
        {strength?.problem && !error ? ` — ${strength.problem}` : ''}
      </Text>
    </>
  ) : hint;
  return (
    <PasswordInput
      autoComplete="new-password"
      visibilityToggleButtonProps={TOGGLE}
      {...props}
      value={value}
      error={error}
      description={meter}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      descriptionProps={{ component: 'div', 'aria-live': 'polite' }}
    />
  );
}

export interface NewPasswordFieldsProps<Values> {
  form: UseFormReturnType<Values>;
  /** The form's fields of the new password and of its confirmation. */
  paths: [password: LooseKeys<Values>, confirm: LooseKeys<Values>];
  label?: string;
  confirmLabel?: string;
  userName?: string | null | undefined;
  hint?: string | undefined;
}

/** A new password with its strength meter, then the same password again (registration, set and change password). */
export function NewPasswordFields<Values>({ form, paths: [password, confirm], label = 'Password', confirmLabel = 'Confirm password', userName, hint }: NewPasswordFieldsProps<Values>) {
  const passwordProps = form.getInputProps(password);
  return (
    <>
      <PasswordField label={label} required userName={userName} hint={hint} {...passwordProps} value={(passwordProps.value as string | undefined) ?? ''} />
      <PasswordInput label={confirmLabel} required autoComplete="new-password" visibilityToggleButtonProps={TOGGLE} {...form.getInputProps(confirm)} />
    </>
  );
}
