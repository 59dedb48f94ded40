import { useState } from 'react';
import { Button, Checkbox, Group, Stack, Text } from '@mantine/core';
import { useUpdatePreferences } from '../../api/session.ts';
import { OnboardingModal } from './onboarding-modal.tsx';
import { onboardingTexts as texts } from './onboarding-texts.ts';

/** end-user §2: the 'Welcome!' activation-delay dialog; "Don't show this message again" is the user's preference. */
export function ActivationDelayDialog({ onClose }: { onClose: () => void }) {
  const updatePreferences = useUpdatePreferences();
  const [hide, setHide] = useState(false);
  const close = () => {
    if (hide) updatePreferences.mutate({ hideActivationDelayDialog: true });
    onClose();
  };
  return (
    <OnboardingModal title={texts.activationTitle} onClose={close}>
      <Stack>
        <Text>{texts.activation}</Text>
        <Checkbox label={texts.dontShowAgain} checked={hide} onChange={(event) => setHide(event.currentTarget.checked)} />
        <Group justify="flex-end">
          <Button onClick={close} data-autofocus>
            {texts.ok}
          </Button>
        </Group>
      </Stack>
    </OnboardingModal>
  );
}
