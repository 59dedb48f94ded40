import type { ReactNode } from 'react';
import { Alert, Button, Group, Modal, Stack, type ModalProps } from '@mantine/core';
import { schemaResolver, useForm, type UseFormReturnType } from '@mantine/form';
import { useState } from 'react';
import type { z } from 'zod';
import { errorDetails } from './error-details.ts';
import { notifyError, notifySuccess } from './notify.ts';

// `object`, not Record<string, unknown>, so interface types are accepted as form values.
type FormValues = object;

export interface EntityModalProps<Values extends FormValues> {
  opened: boolean;
  onClose: () => void;
  /** Shown in the title: "Add {entityName}" or "Edit {entityName}"; `title` replaces the whole title. */
  entityName?: string;
  title?: string;
  size?: ModalProps['size'];
  /** The entity to edit (it has an id) or the blank values of a new one (no id). */
  entity: Values & { id?: string | number | null };
  /** The contracts schema of the request body, so the form shows the server's own validation texts. */
  schema: z.ZodType<Values>;
  /** Saves the values; a rejection with `{ message, modelState }` is shown in the form. */
  onSubmit: (values: Values) => Promise<unknown>;
  /** Renders the fields, bound with `form.getInputProps(name)`. */
  children: (form: UseFormReturnType<Values>) => ReactNode;
  /** Toast shown after a successful save. */
  successMessage?: string;
  /** Toast shown when the save fails, in place of the server's message in the form (field reasons still show). */
  failureMessage?: string;
  /** The submit button's label. */
  submitLabel?: string;
  /** Fields are checked as they are left, Save stays disabled while the form is invalid, and `invalidText` heads a touched invalid form. */
  liveValidation?: { invalidText: string };
}

export function EntityModal<Values extends FormValues>(props: EntityModalProps<Values>) {
  const { opened, onClose, entityName, entity, size } = props;
  const title = props.title ?? (entity.id == null || entity.id === '' ? `Add ${entityName}` : `Edit ${entityName}`);
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={size}>
      {/* Mounted only while open, so every opening starts from the given entity with no stale errors. */}
      {opened && <EntityForm {...props} />}
    </Modal>
  );
}

function EntityForm<Values extends FormValues>({
  onClose,
  entity,
  schema,
  onSubmit,
  children,
  successMessage,
  failureMessage,
  submitLabel = 'Save',
  liveValidation,
}: EntityModalProps<Values>) {
  const form = useForm<Values>({
    initialValues: entity,
    validate: schemaResolver(schema, { sync: true }),
    validateInputOnBlur: !!liveValidation,
  });
  const invalid = !!liveValidation && !form.isValid();
  const [serverError, setServerError] = useState<string[]>([]);

  const save = async (values: Values) => {
    setServerError([]);
    try {
      await onSubmit(values);
    } catch (failure) {
      const { message, modelState } = errorDetails(failure);
      const unplaced: string[] = [];
      const placed = new Set<string>();
      for (const [field, texts] of Object.entries(modelState)) {
        // Errors for fields on screen go under them; anything else joins the alert.
        if (field in form.values) {
          form.setFieldError(field, texts.join(' '));
          for (const t of texts) placed.add(t);
        } else unplaced.push(...texts);
      }
      if (failureMessage) notifyError(failureMessage);
      // A message already shown under its field is not repeated above the form.
      // (a message listing several problems one a line counts as shown when each line is).
      const shown = message.split('\n').every((line) => placed.has(line));
      setServerError(failureMessage || shown ? unplaced : [message, ...unplaced]);
      return;
    }
    if (successMessage) notifySuccess(successMessage);
    onClose();
  };

  return (
    <form onSubmit={form.onSubmit(save)} noValidate>
      <Stack>
        {serverError.length > 0 && (
          <Alert color="red">
            {serverError.map((text) => (
              <div key={text}>{text}</div>
            ))}
          </Alert>
        )}
        {invalid && form.isTouched() && <Alert color="red">{liveValidation.invalidText}</Alert>}
        {children(form)}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={form.submitting}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting} disabled={invalid}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
