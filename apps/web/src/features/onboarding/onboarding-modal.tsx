import type { ReactNode } from 'react';
import { Badge, Group, Modal, Text } from '@mantine/core';
import { DIALOG_WIDTH_PX } from '@clinicrelay/contracts/constants.ts';
import { onboardingTexts } from './onboarding-texts.ts';

// One frame for every onboarding dialog: same width, centered; closing (X, Escape) puts the sequence off until the
// next sign-in or the dashboard's Continue link, except where a dialog must be answered (onClose undefined).
export function OnboardingModal({ title, onClose, children, size = DIALOG_WIDTH_PX }: { title: string; onClose?: (() => void) | undefined; children: ReactNode; size?: number | string }) {
  return (
    <Modal
      opened
      onClose={onClose ?? (() => undefined)}
      title={title}
      centered
      size={size}
      withCloseButton={Boolean(onClose)}
      closeOnEscape={Boolean(onClose)}
      closeOnClickOutside={false}
    >
      {children}
    </Modal>
  );
}

/** The dialogs say "sandbox" when the identity verification provider is the sandbox. */
export function SandboxNote({ provider }: { provider: string | undefined }) {
  if (provider !== 'sandbox') return null;
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Badge color="orange" variant="light" style={{ flexShrink: 0 }}>
        {onboardingTexts.sandbox}
      </Badge>
      <Text size="sm" c="dimmed">
        {onboardingTexts.sandboxNote}
      </Text>
    </Group>
  );
}
