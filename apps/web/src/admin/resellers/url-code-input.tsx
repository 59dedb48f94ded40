import { TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { SEARCH_DEBOUNCE_MS } from '@clinicrelay/contracts/constants.ts';
import { REGISTER_PATH, resellerMessages, URL_CODE_MAX, urlCodeProblem } from '@clinicrelay/contracts/resellers.ts';
import { resellerKeys, urlCodeExists, urlCodeUrl } from '../../api/resellers.ts';
import { errorDetails } from '../../components/error-details.ts';

/**
 * The reseller's URL code, checked as it is typed (300 ms after the last key): the §5 character rules here, then
 * the server's reserved-word and duplicate checks (urlcode, urlexists), with the register URL the code gives.
 */
export function UrlCodeInput<Values extends { urlCode: string }>({ form, resellerId }: { form: UseFormReturnType<Values>; resellerId: string | null }) {
  const [code] = useDebouncedValue(form.values.urlCode.trim(), SEARCH_DEBOUNCE_MS);
  const typedProblem = code ? urlCodeProblem(code) : undefined;
  const check = useQuery({
    queryKey: [...resellerKeys, 'urlcode', resellerId, code],
    queryFn: async ({ signal }) => {
      const [exists, url] = await Promise.all([urlCodeExists(resellerId, code, signal), urlCodeUrl(code, signal)]);
      return { exists, fullUrl: url.fullUrl };
    },
    enabled: code !== '' && !typedProblem,
    retry: false,
  });
  const liveError = typedProblem ?? (check.data?.exists ? resellerMessages.urlCodeExists : check.error ? errorDetails(check.error).message : undefined);
  const fullUrl = !liveError && check.data?.fullUrl;
  return (
    <TextInput
      label="Url Code"
      required
      maxLength={URL_CODE_MAX}
      {...form.getInputProps('urlCode')}
      error={form.errors.urlCode ?? liveError}
      description={fullUrl ? `Register URL: ${fullUrl}` : `Register URL: ${REGISTER_PATH}{Url Code}`}
    />
  );
}
