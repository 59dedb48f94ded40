import { useState } from 'react';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import { errorDetails } from '../../components/error-details.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { useSavePatient } from './api.ts';
import { intakeSaveTexts } from './intake-text.ts';
import {
  birthDateTexts,
  checkTypedDate,
  draftOf,
  serverErrors,
  toPatient,
  validatePatient,
  visitDateTexts,
  type PatientErrors,
  type PatientField,
} from './patient-draft.ts';
import { fillEmptyFields, type ExtractedField, type ExtractedPatient, type PatientDraft } from './patient-extraction.ts';

export type SaveState = 'clean' | 'unsaved' | 'saved';

/** The id of a patient field's input, so a failed save can move the focus to the first field to correct. */
export const patientFieldId = (field: PatientField) => `intake-patient-${field}`;

/**
 * The Intake message's patient form: edits, Extract patient's fills, the checks of end-user §5 (dates when
 * they are left, everything at save) and PUT /api/messages/{id}/patient with its outcome.
 */
export function usePatientForm(message: Message, namesRequired: boolean) {
  const mutation = useSavePatient();
  const [value, setValue] = useState<PatientDraft>(() => draftOf(message.patient));
  const [state, setState] = useState<SaveState>('clean');
  const [extracted, setExtracted] = useState<ReadonlySet<ExtractedField>>(new Set());
  const [errors, setErrors] = useState<PatientErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const change = (field: PatientField, text: string) => {
    setValue((current) => ({ ...current, [field]: text }));
    // A value the user typed over is no longer what the extraction read.
    setExtracted((current) => {
      if (!current.has(field as ExtractedField)) return current;
      const next = new Set(current);
      next.delete(field as ExtractedField);
      return next;
    });
    setErrors(({ [field]: _cleared, ...rest }) => rest);
    setState('unsaved');
  };

  // A typed date is read when the field is left: shown again as MM/DD/YYYY, or its error is shown.
  const checkDate = (field: 'birthDate' | 'visitDate') => {
    const checked = checkTypedDate(value[field], field === 'birthDate' ? birthDateTexts : visitDateTexts);
    if (checked.error !== undefined) {
      setErrors((current) => ({ ...current, [field]: checked.error }));
      return;
    }
    if (checked.shown !== value[field]) setValue((current) => ({ ...current, [field]: checked.shown }));
  };

  const applyExtraction = (found: ExtractedPatient) => {
    const { draft, filled } = fillEmptyFields(value, found);
    setValue(draft);
    setExtracted((current) => new Set([...current, ...filled]));
    if (filled.length > 0) setState('unsaved');
  };

  const save = async () => {
    const found = validatePatient(value, { namesRequired });
    const first = Object.keys(found)[0] as PatientField | undefined;
    if (first) {
      setErrors(found);
      setFormError(intakeSaveTexts.fixPatient);
      document.getElementById(patientFieldId(first))?.focus();
      return;
    }
    setErrors({});
    setFormError(null);
    try {
      const saved = await mutation.mutateAsync({ id: message.id, patient: toPatient(value, message.patient) });
      setValue(draftOf(saved.patient));
      setState('saved');
      notifySuccess(intakeSaveTexts.patientSaved);
    } catch (error) {
      const details = errorDetails(error);
      const { fields, other } = serverErrors(details.modelState);
      setErrors(fields);
      const reason = other.length > 0 ? other.join(' ') : details.message;
      setFormError(`${intakeSaveTexts.patientNotSaved} ${reason}`);
      notifyError(`${intakeSaveTexts.patientNotSaved} ${reason}`);
    }
  };

  return { value, change, checkDate, applyExtraction, save, saving: mutation.isPending, state, extracted, errors, formError };
}

export type PatientForm = ReturnType<typeof usePatientForm>;
