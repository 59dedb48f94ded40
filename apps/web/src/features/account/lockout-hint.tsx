import { lazy, Suspense, useRef, useState } from 'react';
import { ActionIcon } from '@mantine/core';

// Mantine's Tooltip brings floating-ui, a tenth of sign-in's JavaScript: fetched on the first hover or focus.
const LockoutTooltip = lazy(async () => ({ default: (await import('./lockout-tooltip.tsx')).LockoutTooltip }));

/** The info button whose tooltip states the account lockout policy. */
export function LockoutHint() {
  const button = useRef<HTMLButtonElement>(null);
  const [opened, setOpened] = useState(false);
  const [wanted, setWanted] = useState(false);
  const show = () => {
    setWanted(true);
    setOpened(true);
  };
  const hide = () => setOpened(false);
  return (
    <>
      <ActionIcon
        ref={button}
        variant="subtle"
        color="gray"
        size="lg"
        aria-label="Account lockout policy"
        onMouseEnter={show}
        onMouseLeave={hide}
        onFocus={show}
        onBlur={hide}
      >
        <InfoIcon />
      </ActionIcon>
      {wanted && (
        <Suspense>
          <LockoutTooltip target={button} opened={opened} />
        </Suspense>
      )}
    </>
  );
}

function InfoIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <circle cx="12" cy="12" r="9" />
      <path d="M12 8h.01M11 12h1v4h1" />
    </svg>
  );
}
