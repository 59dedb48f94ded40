import { TextInput, type TextInputProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery, type QueryKey } from '@tanstack/react-query';
import { orgUserMessages as text, orgUserName, USERNAME_CHECK_DEBOUNCE_MS } from '@clinicrelay/contracts/users.ts';
import { errorDetails } from './error-details.ts';

export interface UserNameInputProps extends Omit<TextInputProps, 'value' | 'description'> {
  value: string;
  /** Asks the server whether the name is taken (POST …/find?username=). */
  check: (userName: string, signal: AbortSignal) => Promise<{ exists: boolean }>;
  /** The check's query key for a (lower-cased) name. */
  queryKey: (userName: string) => QueryKey;
  /** Shown under the field until the name is known to be free. */
  hint: string;
}

// end-user §5 "Username": an email-like name, checked with the server 1 s after the last key.
export function UserNameInput({ value, error, check, queryKey, hint, ...props }: UserNameInputProps) {
  const [typed] = useDebouncedValue(value.trim(), USERNAME_CHECK_DEBOUNCE_MS);
  const valid = typed !== '' && orgUserName.safeParse(typed).success;
  const found = useQuery({
    queryKey: queryKey(typed.toLowerCase()),
    queryFn: ({ signal }) => check(typed, signal),
    enabled: valid,
    retry: false,
  });
  const liveError = typed === '' ? undefined : !valid ? text.userNameNotValid : found.data?.exists ? text.userNameExists : found.error ? errorDetails(found.error).message : undefined;
  const available = valid && found.data && !found.data.exists;
  return (
    <TextInput
      required
      type="email"
      maxLength={256}
      {...props}
      value={value}
      error={error ?? liveError}
      description={available ? text.userNameAvailable : hint}
    />
  );
}
