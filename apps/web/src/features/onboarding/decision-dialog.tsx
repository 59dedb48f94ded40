import { useState } from 'react';
import { Button, FileInput, Group, Stack, Text } from '@mantine/core';
import { ID_DOCUMENT_ACCEPT, type IdentityDecision } from '@clinicrelay/contracts/identity-proofing.ts';
import { errorDetails } from '../../components/error-details.ts';
import { notifySuccess } from '../../components/notify.ts';
import { useUploadIdentityDocument } from './api.ts';
import { OnboardingModal } from './onboarding-modal.tsx';
import { onboardingTexts as texts } from './onboarding-texts.ts';

/**
 * The decision (screens-catalog "Decision"): Y the congratulations about the national address book, N the manual ID
 * upload (Browse and Submit), R the thank-you for a review.
 */
export function DecisionDialog({ decision, onClose }: { decision: IdentityDecision; onClose: () => void }) {
  return (
    <OnboardingModal title={texts.decisionTitle} onClose={onClose}>
      {decision === 'N' ? (
        <ManualUpload onDone={onClose} />
      ) : (
        <Stack>
          <Text>{decision === 'Y' ? texts.passed : texts.review}</Text>
          <Group justify="flex-end">
            <Button onClick={onClose} data-autofocus>
              {texts.close}
            </Button>
          </Group>
        </Stack>
      )}
    </OnboardingModal>
  );
}

function ManualUpload({ onDone }: { onDone: () => void }) {
  const upload = useUploadIdentityDocument();
  const [file, setFile] = useState<File | null>(null);
  const [touched, setTouched] = useState(false);
  const submit = () => {
    setTouched(true);
    if (!file) return;
    upload.mutate(file, {
      onSuccess: (result) => {
        notifySuccess(result.message);
        onDone();
      },
    });
  };
  const serverError = upload.isError ? errorDetails(upload.error) : null;
  return (
    <Stack>
      <Text>{texts.failed}</Text>
      <Group align="flex-end" wrap="nowrap">
        <FileInput
          label={texts.documentLabel}
          placeholder={texts.browse}
          accept={ID_DOCUMENT_ACCEPT}
          value={file}
          onChange={setFile}
          clearable
          style={{ flex: 1 }}
          error={(touched && !file ? 'Please choose a file.' : undefined) ?? serverError?.modelState.file?.[0] ?? serverError?.message}
        />
      </Group>
      <Group justify="flex-end">
        <Button onClick={submit} loading={upload.isPending}>
          {texts.submit}
        </Button>
      </Group>
    </Stack>
  );
}
