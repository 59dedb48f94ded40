import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Loader, Stack, Text } from '@mantine/core';
import { TermsDocument } from '../../components/terms-document.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { useAcceptTerms, useCurrentTerms } from './api.ts';
import { OnboardingModal } from './onboarding-modal.tsx';
import { onboardingTexts as texts } from './onboarding-texts.ts';

/**
 * Terms and conditions (or reseller terms when resellerBypassTos): the active document of the organization's brand and
 * a required checkbox. When no document is published (404) the dialog says so and the sequence goes on: there is
 * nothing to accept, and the user is asked again once a document is active. It cannot be dismissed.
 */
export function TermsDialog({ reseller, onAccepted }: { reseller: boolean; onAccepted: () => void }) {
  const terms = useCurrentTerms(true);
  const accept = useAcceptTerms();
  const [checked, setChecked] = useState(false);
  const [touched, setTouched] = useState(false);
  const title = reseller ? texts.resellerTermsTitle : texts.termsTitle;
  const noDocument = terms.isError && (terms.error as { status?: number }).status === 404;

  const submit = () => {
    setTouched(true);
    if (!checked || !terms.data) return;
    accept.mutate(terms.data.id, { onSuccess: onAccepted });
  };

  return (
    // No close button, Escape or outside click (issue 26): the current terms must be accepted before anything else.
    <OnboardingModal title={title} size="xl">
      <Stack>
        {reseller && <Text>{texts.resellerTermsIntro}</Text>}
        {terms.isPending && <Loader aria-label="Loading the terms" mx="auto" />}
        {noDocument && (
          <>
            <Text>{texts.noTerms}</Text>
            <Group justify="flex-end">
              <Button onClick={onAccepted}>{texts.continue}</Button>
            </Group>
          </>
        )}
        {terms.isError && !noDocument && <Alert color="red">{errorDetails(terms.error).message}</Alert>}
        {terms.data && (
          <>
            <TermsDocument html={terms.data.html} title={title} height="50vh" />
            <Checkbox
              label={texts.termsCheckbox}
              checked={checked}
              onChange={(event) => setChecked(event.currentTarget.checked)}
              error={touched && !checked ? texts.termsRequired : undefined}
              required
            />
            {accept.isError && <Alert color="red">{errorDetails(accept.error).message}</Alert>}
            <Group justify="flex-end">
              <Button onClick={submit} loading={accept.isPending}>
                {texts.accept}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </OnboardingModal>
  );
}
