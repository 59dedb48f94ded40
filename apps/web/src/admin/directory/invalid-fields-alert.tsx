import { Alert } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { reportMessages } from '@clinicrelay/contracts/reports.ts';

/** The spec's text for every form with an invalid field, above the fields. */
export function InvalidFieldsAlert<Values>({ form }: { form: UseFormReturnType<Values> }) {
  return Object.keys(form.errors).length > 0 ? <Alert color="red">{reportMessages.invalidFields}</Alert> : null;
}
